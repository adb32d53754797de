import { reply, startFakeAnthropic, toolUse } from '@holodeck/testkit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createGateWorld, type GateWorld, toolResultsSeen } from './support/gate-fixture.js';

// Issue 24: `gate.agentEnv()` copied Novarch's credentials into the agent's environment, so a Bash
// call could read NOVARCH_API_KEY and the session id and report evidence of a lookup that never
// happened. Through the real CLI: the agent's own shell prints its environment.

let fake: Awaited<ReturnType<typeof startFakeAnthropic>>;
let world: GateWorld;
beforeAll(async () => {
  fake = await startFakeAnthropic();
});
afterEach(async () => {
  await world?.close();
  try {
    fake.assertComplete();
  } finally {
    fake.reset();
  }
});
afterAll(() => fake.close());

/** What a Novarch deployment has in the environment of the program that runs the agent. */
const NOVARCH_SECRETS = {
  NOVARCH_API_KEY: 'nva_agent_key_secret_1234',
  NOVARCH_TOKEN: 'nvo_operator_token_secret_5678',
  NOVARCH_SERVER: 'http://127.0.0.1:9',
  NOVARCH_STORE_URL: 'postgres://novarch:db-password-secret@127.0.0.1/novarch',
  NOVARCH_WEBHOOK_SECRET_ACME: 'whsec_secret_abcd',
  novarch_api_key: 'nva_lower_case_secret',
};

describe("the agent's environment (agentEnv)", () => {
  it('a Bash call in a governed run sees no Novarch credential, no session id, only the marker', async () => {
    world = await createGateWorld();
    let sessionId = '';
    fake.script(
      toolUse('Bash', { command: 'env | sort', description: 'show env' }, { id: 'b1' }),
      reply('ok'),
    );
    await world.run(fake.url, {
      builtinReads: ['Bash'],
      env: { ...NOVARCH_SECRETS, KEPT_FOR_THE_AGENT: 'yes' },
      onGate: (gate) => {
        sessionId = gate.sessionId;
      },
    });
    const printed = toolResultsSeen(fake, 1).b1?.text ?? '';
    // The shell ran: the variables the agent is meant to have are there.
    expect(printed).toContain('KEPT_FOR_THE_AGENT=yes');
    expect(printed).toContain('NOVARCH_GOVERNED_SESSION=governed');
    for (const [name, value] of Object.entries(NOVARCH_SECRETS)) {
      expect(printed, name).not.toContain(value);
      expect(printed, name).not.toContain(`${name}=`);
    }
    expect(sessionId).not.toBe('');
    expect(printed).not.toContain(sessionId);
    expect(printed.match(/^NOVARCH_.*$/gim)).toEqual(['NOVARCH_GOVERNED_SESSION=governed']);
  });
});

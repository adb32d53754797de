import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { GOVERNED_SESSION_ENV } from '../../../src/index.js';
import {
  type NovarchTestBase,
  openNovarchTestBase,
  openTestGate,
  testEngine,
} from './support/novarch-test-world.js';

// Issue 24: agentEnv() copied this process's environment, Novarch's credentials included, into the
// agent's (the e2e test shows a Bash call; this one the default, process.env).

let base: NovarchTestBase;
beforeAll(async () => {
  base = await openNovarchTestBase();
});
afterAll(() => base.close());
const saved = { ...process.env };
afterEach(() => {
  for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
});

describe('gate.agentEnv()', () => {
  it("leaves out every NOVARCH_* variable of this process's environment and sets the marker", async () => {
    process.env.NOVARCH_API_KEY = 'nva_secret';
    process.env.NOVARCH_TOKEN = 'nvo_secret';
    process.env.Novarch_Store_Url = 'postgres://u:p@h/d';
    process.env.SOMETHING_ELSE = 'kept';
    const { gate } = await openTestGate(testEngine(base, base.store));
    const env = gate.agentEnv();
    expect(env.SOMETHING_ELSE).toBe('kept');
    expect(Object.keys(env).filter((name) => name.toUpperCase().startsWith('NOVARCH_'))).toEqual([
      GOVERNED_SESSION_ENV,
    ]);
    expect(env[GOVERNED_SESSION_ENV]).toBe('governed');
    expect(JSON.stringify(env)).not.toContain(gate.sessionId);
  });

  it('a caller-supplied marker or key is replaced or dropped too', async () => {
    const { gate } = await openTestGate(testEngine(base, base.store));
    expect(gate.agentEnv({ PATH: '/bin', NOVARCH_GOVERNED_SESSION: 'ses_x', NOVARCH_API_KEY: 'k' })).toEqual({
      PATH: '/bin',
      NOVARCH_GOVERNED_SESSION: 'governed',
    });
  });
});

import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backendVariants } from '../both-backends/backend-variants.js';
import type { E2eAgent } from '../support/e2e-agent.js';
import { postJson, type ServeProcess, startServe } from './serve-harness.js';

// Two `holodeck serve` instances on loopback, one agent and one serve.sessions_dir, on both
// backends: a session id names its instance (the other answers 421 naming it), and once that
// instance shut down, the other resumes the session from its saved state.

describe.each(backendVariants())('holodeck serve: two instances ($name backend)', (variant) => {
  let agent: E2eAgent;
  let alpha: ServeProcess | undefined;
  let beta: ServeProcess | undefined;
  beforeAll(async () => {
    await variant.start();
    agent = variant.agent({ serve: { sessions_dir: 'shared-sessions' } });
    alpha = await startServe(agent, ['--instance-id', 'alpha']);
    beta = await startServe(agent, ['--instance-id', 'beta']);
  });
  afterAll(async () => {
    await alpha?.stop();
    await beta?.stop();
    await variant.close();
  });

  it('answers 421 naming the instance that holds a session, and resumes it elsewhere after that one ended', async () => {
    variant.script(variant.reply('Paris.'), variant.reply('About 2.1 million.'));
    const id = ((await (await postJson(`${alpha?.url}/v1/sessions`, {})).json()) as { id: string }).id;
    expect(id).toMatch(/^alpha\.[0-9a-f]{32}$/);
    const first = await postJson(`${alpha?.url}/v1/sessions/${id}/messages`, {
      message: 'Capital of France?',
    });
    expect(await first.json()).toMatchObject({ response: 'Paris.' });

    const misdirected = await postJson(`${beta?.url}/v1/sessions/${id}/messages`, {
      message: 'Its population?',
    });
    expect(misdirected.status).toBe(421);
    expect(await misdirected.json()).toMatchObject({
      status: 421,
      instance: 'alpha',
      detail: `session "${id}" is held by instance "alpha", not this one ("beta"): send the request to that instance (route on the session id's prefix)`,
    });

    // The saved record: mode 0600, no key material, in the shared folder.
    const folder = path.join(agent.directory, 'shared-sessions');
    const files = readdirSync(folder).filter((name) => name.endsWith('.json'));
    expect(files).toEqual([`${id}.json`]);
    expect(statSync(path.join(folder, files[0] ?? '')).mode & 0o777).toBe(0o600);

    expect(await alpha?.stop()).toBe(0);
    alpha = undefined;
    const resumed = await postJson(`${beta?.url}/v1/sessions/${id}/messages`, { message: 'Its population?' });
    expect(resumed.status).toBe(200);
    expect(await resumed.json()).toMatchObject({ sessionId: id, response: 'About 2.1 million.' });
    // The resumed backend session carried the first turn to the model.
    expect(variant.requests().at(-1)?.conversation).toContain('Capital of France?');
    expect(variant.requests().at(-1)?.conversation).toContain('Paris.');
    const state = (await (await fetch(`${beta?.url}/v1/sessions/${id}`)).json()) as {
      messages: { content: string }[];
    };
    expect(state.messages.map((message) => message.content)).toEqual([
      'Capital of France?',
      'Paris.',
      'Its population?',
      'About 2.1 million.',
    ]);
    variant.checkAndReset();
  });
});

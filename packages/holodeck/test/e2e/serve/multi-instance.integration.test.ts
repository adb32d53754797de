import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backendVariants } from '../both-backends/backend-variants.js';
import {
  firstTurnOnAlpha,
  postJson,
  resumeOnBeta,
  startServe,
  startTwoInstances,
  type TwoInstances,
} from './serve-harness.js';

// Two `holodeck serve` instances on loopback, on both backends, that share nothing but
// serve.sessions_dir, as two machines would: each its own copy of the agent folder (the AI SDK's
// .holodeck/sessions/) and its own HOME (the Claude CLI's transcripts). A session id names its
// instance (the other answers 421 naming it), and once that instance shut down, the other resumes
// the session, its history included, from what the first saved to the shared folder.

describe.each(backendVariants())('holodeck serve: two instances ($name backend)', (variant) => {
  let pair: TwoInstances;
  beforeAll(async () => {
    await variant.start();
    pair = await startTwoInstances((shared) => variant.agent({ serve: { sessions_dir: shared } }));
    expect(pair.other.directory).not.toBe(pair.agent.directory);
    expect(pair.other.env.HOME).not.toBe(pair.agent.env.HOME);
  });
  afterAll(async () => {
    await pair?.stop();
    await variant.close();
  });

  it('answers 421 naming the instance that holds a session, and resumes it elsewhere after that one ended', async () => {
    const { shared } = pair;
    const id = await firstTurnOnAlpha(pair, variant);
    expect(id).toMatch(/^alpha\.[0-9a-f]{32}$/);

    const misdirected = await postJson(`${pair.beta?.url}/v1/sessions/${id}/messages`, {
      message: 'Its population?',
    });
    expect(misdirected.status).toBe(421);
    expect(await misdirected.json()).toMatchObject({
      status: 421,
      instance: 'alpha',
      detail: `session "${id}" is held by instance "alpha", not this one ("beta"): send the request to that instance (route on the session id's prefix)`,
    });

    // The saved record: mode 0600, no key material, in the shared folder; beside it, the
    // backend's state of the conversation.
    const files = readdirSync(shared).filter((name) => name.endsWith('.json'));
    expect(files).toEqual([`${id}.json`]);
    expect(statSync(path.join(shared, files[0] ?? '')).mode & 0o777).toBe(0o600);
    expect(existsSync(path.join(shared, `${id}.state`))).toBe(true);

    // The resumed backend session carried the first turn to the model.
    await resumeOnBeta(pair, variant, id);
    const state = (await (await fetch(`${pair.beta?.url}/v1/sessions/${id}`)).json()) as {
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

  it('answers 410, saying why, for a saved session whose conversation is not in the shared folder', async () => {
    const { shared } = pair;
    variant.script(variant.reply('Hello.'));
    const id = ((await (await postJson(`${pair.beta?.url}/v1/sessions`, {})).json()) as { id: string }).id;
    expect((await postJson(`${pair.beta?.url}/v1/sessions/${id}/messages`, { message: 'Hi' })).status).toBe(
      200,
    );
    expect(await pair.beta?.stop()).toBe(0);
    pair.beta = undefined;
    // As if the instance had died before it exported the conversation.
    rmSync(path.join(shared, `${id}.state`), { recursive: true });
    const third = await startServe(variant.agent({ serve: { sessions_dir: shared } }), [
      '--instance-id',
      'gamma',
    ]);
    try {
      const lost = await postJson(`${third.url}/v1/sessions/${id}/messages`, { message: 'Still there?' });
      expect(lost.status).toBe(410);
      const problem = (await lost.json()) as { detail: string };
      expect(problem.detail).toBe(
        `session "${id}" was saved by instance "beta", but its conversation cannot be resumed here: serve.sessions_dir has no ${id}.state/ (its instance may have ended before saving it), and this machine has no copy; start a new session with POST /v1/sessions`,
      );
      // Nothing was claimed for good: the record is still there, released.
      expect(existsSync(path.join(shared, `${id}.json`))).toBe(true);
      expect(existsSync(path.join(shared, `${id}.json.claim`))).toBe(false);
    } finally {
      await third.stop();
    }
    variant.checkAndReset();
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  classifyMessagesRequest,
  type FakeAnthropicServer,
  type MessagesBody,
  reply,
  startFakeAnthropic,
} from '../../src/index.js';
import { parseMessagesBody } from '../../src/request/messages-body.js';
import { loadCliFixture } from '../support/load-fixture.js';
import { messagesBody, postJson } from '../support/post-messages.js';

function fixtureBody(name: string): { body: MessagesBody; headers: Record<string, string> } {
  const fixture = loadCliFixture(name);
  const parsed = parseMessagesBody(fixture.body);
  if (!parsed.ok) throw new Error(`fixture ${name} is not a Messages body: ${parsed.message}`);
  return { body: parsed.body, headers: fixture.headers };
}

function classifyFixture(name: string) {
  const { body, headers } = fixtureBody(name);
  return classifyMessagesRequest(body, headers);
}

describe('classifyMessagesRequest on requests the real CLI 2.1.332 sent', () => {
  it.each(['agent-loop-first', 'agent-loop-tool-result', 'unknown-model-agent-loop', 'subagent-agent-loop'])(
    '%s is agent loop',
    (name) => {
      expect(classifyFixture(name)).toEqual({
        kind: 'agent-loop',
        reason: 'Claude Code conversation with environment context',
      });
    },
  );

  it('the tool-use summary helper (no environment context) is auxiliary', () => {
    expect(classifyFixture('tool-use-summary-helper')).toEqual({
      kind: 'auxiliary',
      reason: 'helper: Claude Code request without the environment context',
    });
  });

  it('the prompt-suggestion fork (same history plus a [SUGGESTION MODE: prompt) is auxiliary', () => {
    expect(classifyFixture('prompt-suggestion-fork')).toEqual({
      kind: 'auxiliary',
      reason: 'fork: last user message contains "[SUGGESTION MODE:"',
    });
  });

  it('a max_tokens 1 probe is auxiliary even with the environment context', () => {
    const { body, headers } = fixtureBody('agent-loop-first');
    expect(classifyMessagesRequest({ ...body, max_tokens: 1 }, headers)).toEqual({
      kind: 'auxiliary',
      reason: 'probe: max_tokens 1',
    });
  });
});

describe('classifyMessagesRequest on other clients', () => {
  it('treats any request not from the CLI as agent loop (plain fetch, Anthropic SDK)', () => {
    const parsed = parseMessagesBody(messagesBody());
    if (!parsed.ok) throw new Error(parsed.message);
    expect(classifyMessagesRequest(parsed.body, { 'user-agent': 'Anthropic/JS 0.93.0' }).kind).toBe(
      'agent-loop',
    );
  });
});

describe('the server applies the rule', () => {
  let server: FakeAnthropicServer;
  beforeAll(async () => {
    server = await startFakeAnthropic({ auxiliaryStep: reply('aux answer') });
  });
  afterAll(async () => {
    await server.close();
  });

  it('answers helpers with the auxiliary step and keeps the script for the agent loop', async () => {
    server.script(reply('loop answer'));
    const helper = loadCliFixture('tool-use-summary-helper');
    const loop = loadCliFixture('agent-loop-first');
    const helperResponse = await postJson(
      server.url,
      helper.path,
      { ...helper.body, stream: false },
      helper.headers,
    );
    const loopResponse = await postJson(server.url, loop.path, { ...loop.body, stream: false }, loop.headers);

    expect(await helperResponse.json()).toMatchObject({ content: [{ text: 'aux answer' }] });
    expect(await loopResponse.json()).toMatchObject({
      content: [{ text: 'loop answer' }],
      model: 'claude-sonnet-4-5',
    });
    expect(server.requests.map((request) => request.sequence)).toEqual([2]);
    expect(server.auxiliaryRequests.map((request) => request.reason)).toEqual([
      'helper: Claude Code request without the environment context',
    ]);
    server.assertComplete();
  });

  it('uses a custom classify function when given one', async () => {
    const everythingAuxiliary = await startFakeAnthropic({
      classify: () => ({ kind: 'auxiliary', reason: 'custom rule' }),
    });
    try {
      await (await postJson(everythingAuxiliary.url, '/v1/messages', messagesBody())).text();
      expect(everythingAuxiliary.auxiliaryRequests).toMatchObject([{ reason: 'custom rule' }]);
      everythingAuxiliary.assertComplete();
    } finally {
      await everythingAuxiliary.close();
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type FakeAnthropicServer,
  lastUserText,
  type RecordedRequest,
  reply,
  startFakeAnthropic,
  systemPromptText,
  toolNames,
  toolResults,
} from '../../src/index.js';
import { loadCliFixture } from '../support/load-fixture.js';
import { postJson } from '../support/post-messages.js';

let server: FakeAnthropicServer;
let request: RecordedRequest;

beforeAll(async () => {
  server = await startFakeAnthropic({ steps: [reply('ok')] });
  const fixture = loadCliFixture('agent-loop-tool-result');
  await (await postJson(server.url, fixture.path, fixture.body, fixture.headers)).text();
  const [recorded] = server.requests;
  if (recorded === undefined) throw new Error('the fixture request was not recorded as agent loop');
  request = recorded;
});

afterAll(async () => {
  await server.close();
});

describe('request inspection helpers on a recorded CLI request', () => {
  it('systemPromptText joins the system blocks (billing header, SDK prompt)', () => {
    expect(systemPromptText(request)).toContain(
      "You are a Claude agent, built on Anthropic's Claude Agent SDK.",
    );
  });

  it('toolNames lists the offered tools', () => {
    expect(toolNames(request)).toEqual(['mcp__calc__add']);
  });

  it('toolResults returns what the CLI sent back, including its appended system-reminder', () => {
    const [result] = toolResults(request);
    expect(result).toMatchObject({ toolUseId: 'toolu_01', isError: false });
    expect(result?.text.startsWith('sum=5\n')).toBe(true);
    expect(result?.text).toContain('<system-reminder>');
  });

  it('lastUserText is empty when the last user message holds only tool results', () => {
    expect(lastUserText(request)).toBe('');
  });
});

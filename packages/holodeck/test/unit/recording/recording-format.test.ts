import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { canonicaliseRequest } from '../../../src/recording/canonicalise-request.js';
import { describeValues, firstDifference } from '../../../src/recording/first-difference.js';
import { normaliseRequestBody } from '../../../src/recording/normalise-request.js';
import { recordResponse, responseText } from '../../../src/recording/recorded-response.js';
import {
  readRecordingFile,
  serialiseRecording,
  writeAtomically,
} from '../../../src/recording/recording-file.js';
import type { RecordedExchange } from '../../../src/recording/recording-file-schema.js';
import { stabiliseIds } from '../../../src/recording/stable-ids.js';

const ENVIRONMENT = (cwd: string, date: string) =>
  `<system-reminder>\n# Environment\nYou have been invoked in the following environment: \n - Primary working directory: ${cwd}\n - Is a git repository: false\n - Platform: linux\n - Shell: bash\n - OS Version: Linux 6.1\n</system-reminder>\n<system-reminder>\nToday's date is ${date}.\n</system-reminder>`;

function cliBody(cwd: string, date: string, session: string) {
  return {
    model: 'claude-sonnet-4-5',
    metadata: { user_id: JSON.stringify({ device_id: session, session_id: session }) },
    system: [
      { type: 'text', text: 'x-anthropic-billing-header: cc_version=2.1.332.f7d; cc_entrypoint=sdk-ts;' },
      { type: 'text', text: 'You are a shop agent.', cache_control: { type: 'ephemeral' } },
    ],
    messages: [
      {
        role: 'user',
        content: [
          { type: 'text', text: ENVIRONMENT(cwd, date) },
          { type: 'text', text: `read ${cwd}/notes.txt`, cache_control: { type: 'ephemeral' } },
        ],
      },
    ],
  };
}

describe('canonical requests', () => {
  it('two CLI runs in other folders, on other days and sessions, give one canonical form', () => {
    const a = normaliseRequestBody(cliBody('/tmp/run-a', '2026-12-01', 'one'));
    const b = normaliseRequestBody(cliBody('/tmp/run-bb', '2027-01-09', 'two'));
    expect(a).toEqual(b);
    expect(JSON.stringify(a)).toContain('read <cwd>/notes.txt');
    expect(JSON.stringify(a)).not.toContain('cache_control');
    expect(JSON.stringify(a)).not.toContain('billing-header');
    expect(JSON.stringify(a)).not.toContain('metadata');
  });

  it('drops credentials from the query and redacts secrets in the body', () => {
    const request = canonicaliseRequest(
      {
        method: 'post',
        url: 'https://x.example/v1/embed?key=sk-secret-123&api-version=2024',
        body: '{"input":"use sk-secret-123"}',
      },
      ['sk-secret-123'],
    );
    expect(request).toEqual({
      method: 'POST',
      path: '/v1/embed?api-version=2024',
      body: { input: 'use [redacted]' },
    });
  });
});

describe('the first difference', () => {
  it('names the path and shortens both values around where they differ', () => {
    const recorded = { messages: [{ content: [{ text: `${'a'.repeat(100)} briefly.` }] }] };
    const actual = { messages: [{ content: [{ text: `${'a'.repeat(100)} at length.` }] }] };
    const difference = firstDifference(actual, recorded);
    expect(difference?.path).toBe('messages[0].content[0].text');
    expect(describeValues(difference?.actual, difference?.recorded)).toBe(
      `"…${'a'.repeat(23)} at length." vs "…${'a'.repeat(23)} briefly."`,
    );
    expect(firstDifference({ a: 1 }, { a: 1 })).toBeUndefined();
    expect(describeValues(undefined, 'x')).toBe('(absent) vs "x"');
  });
});

describe('responses and files', () => {
  it('keeps a stream as its events in order and replays the same bytes', () => {
    const text =
      'event: message_start\ndata: {"type":"message_start"}\n\nevent: message_stop\ndata: {"type":"message_stop"}\n\n';
    const recorded = recordResponse(
      200,
      new Headers({ 'content-type': 'text/event-stream', 'request-id': 'r1' }),
      text,
    );
    expect(recorded.headers).toEqual({ 'content-type': 'text/event-stream' });
    expect(recorded.events?.map((event) => event.event)).toEqual(['message_start', 'message_stop']);
    expect(responseText(recorded)).toBe(text);
  });

  it('replaces response ids by placeholders, in the responses and the requests that quote them', () => {
    const exchanges: RecordedExchange[] = [
      {
        attempt: 1,
        turn: 1,
        source: 'agent',
        request: { method: 'POST', path: '/v1/messages', body: { messages: [] } },
        response: {
          status: 200,
          headers: {},
          body: { id: 'msg_abc', content: [{ id: 'toolu_xyz' }], created: 1234 },
        },
      },
      {
        attempt: 1,
        turn: 1,
        source: 'agent',
        request: { method: 'POST', path: '/v1/messages', body: { messages: [{ tool_use_id: 'toolu_xyz' }] } },
        response: { status: 200, headers: {}, body: { id: 'msg_def' } },
      },
    ];
    const stable = stabiliseIds(exchanges);
    expect(stable[0]?.response.body).toEqual({
      id: 'msg_rec_1',
      content: [{ id: 'toolu_rec_2' }],
      created: 0,
    });
    expect(stable[1]?.request.body).toEqual({ messages: [{ tool_use_id: 'toolu_rec_2' }] });
    expect(stable[1]?.response.body).toEqual({ id: 'msg_rec_3' });
  });

  it('stores a system prompt once by hash and reads it back; writes leave no temporary file', async () => {
    const system = [{ type: 'text', text: 'You are a shop agent. '.repeat(10) }];
    const exchange = (text: string): RecordedExchange => ({
      attempt: 1,
      turn: 1,
      source: 'agent',
      request: {
        method: 'POST',
        path: '/v1/messages',
        body: { system, messages: [{ role: 'user', content: text }] },
      },
      response: { status: 200, headers: {}, body: { ok: true } },
    });
    const file = {
      format: 'holodeck-recording' as const,
      version: 1 as const,
      holodeck: '0.1.0',
      agent: { name: 'a', provider: 'anthropic', model: 'm' },
      case: 'c',
      exchanges: [exchange('one'), exchange('two')],
      tool_calls: [],
    };
    const text = serialiseRecording(file);
    expect(text.split('You are a shop agent.').length - 1).toBe(10);
    expect(serialiseRecording(file)).toBe(text);
    const folder = mkdtempSync(path.join(tmpdir(), 'recording-format-'));
    const target = path.join(folder, 'c.json');
    await writeAtomically(target, text);
    expect(readdirSync(folder)).toEqual(['c.json']);
    expect(readFileSync(target, 'utf8')).toBe(text);
    const read = await readRecordingFile(target);
    expect(read.exchanges).toEqual(file.exchanges);
  });
});

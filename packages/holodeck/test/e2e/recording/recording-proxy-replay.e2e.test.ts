import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Issue 19 §5: a replay uses no more memory than the live run. The Claude CLI's requests reach
// HoloDeck's loopback proxy; a recorded answer is written to the socket as it is, so a replayed run
// never loads fetch's Headers/Response (undici, ~10 MB of the process's memory). A fresh process
// with the built proxy shows it: a streamed and a JSON answer, byte for byte, and no undici loaded.
const proxyModule = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../dist/recording/recording-proxy.js',
);

const script = `
import { request } from 'node:http';
const { RecordingProxy } = await import(${JSON.stringify(proxyModule)});
const answers = [
  { recorded: { status: 200, headers: { 'content-type': 'text/event-stream' }, events: [
    { event: 'message_start', data: { type: 'message_start' } },
    { event: 'message_stop', data: { type: 'message_stop' } },
  ] } },
  { recorded: { status: 400, headers: { 'content-type': 'application/json' }, body: { error: { message: 'no recording' } } } },
];
const seen = [];
const proxy = await RecordingProxy.listen(async (scope, outgoing) => {
  seen.push({ scope: scope.caseName, url: outgoing.url, key: outgoing.headers['x-api-key'] ?? null, body: outgoing.body });
  return answers[seen.length - 1];
});
const route = proxy.routeFor('https://api.example.test');
route.claim({ caseName: 'case-1', attempt: 1, turn: 1 });
const post = (body) => new Promise((resolve, reject) => {
  const req = request(route.baseUrl + '/v1/messages', { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': 'sk-test' } }, (res) => {
    let text = '';
    res.setEncoding('utf8');
    res.on('data', (chunk) => { text += chunk; });
    res.on('end', () => resolve({ status: res.statusCode, type: res.headers['content-type'], text }));
  });
  req.on('error', reject);
  req.end(body);
});
const first = await post('{"a":1}');
const second = await post('{"b":2}');
await proxy.close();
const undici = process.moduleLoadList.filter((name) => name.includes('undici'));
process.stdout.write(JSON.stringify({ first, second, seen, undici }));
`;

describe('the recording proxy in replay', () => {
  it('writes recorded answers as they are, without loading fetch', () => {
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(child.stderr).toBe('');
    const result = JSON.parse(child.stdout);
    expect(result.first).toEqual({
      status: 200,
      type: 'text/event-stream',
      text: 'event: message_start\ndata: {"type":"message_start"}\n\nevent: message_stop\ndata: {"type":"message_stop"}\n\n',
    });
    expect(result.second).toEqual({
      status: 400,
      type: 'application/json',
      text: '{"error":{"message":"no recording"}}',
    });
    expect(result.seen).toEqual([
      { scope: 'case-1', url: 'https://api.example.test/v1/messages', key: 'sk-test', body: '{"a":1}' },
      { scope: 'case-1', url: 'https://api.example.test/v1/messages', key: 'sk-test', body: '{"b":2}' },
    ]);
    expect(result.undici).toEqual([]);
  });
});

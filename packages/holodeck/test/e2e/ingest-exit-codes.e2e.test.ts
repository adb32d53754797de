import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { type FakeOpenAIServer, startFakeOpenAI } from '@holodeck/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createE2eAgent } from './support/e2e-agent.js';
import { runHolodeckCli } from './support/run-holodeck-cli.js';

// `holodeck ingest` against an embeddings API that refuses the key, and one fetch cannot reach:
// the exit code and message say which setting to fix.
let server: Server;
let rejecting: string;
let embeddings: FakeOpenAIServer;
beforeAll(async () => {
  embeddings = await startFakeOpenAI();
  server = createServer((_request, response) => {
    response.writeHead(401, { 'content-type': 'application/json' });
    response.end('{"error":{"message":"Incorrect API key provided"}}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  rejecting = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await embeddings.close();
  await new Promise((resolve) => server.close(resolve));
});

function agentAt(endpoint: string) {
  return createE2eAgent('http://127.0.0.1:9', {
    config: {
      embedding_provider: { provider: 'openai', name: 'text-embedding-3-small', endpoint },
      tools: [{ type: 'vectorstore', name: 'docs', description: 'Docs', source: 'docs' }],
    },
    files: { 'docs/a.md': '# Refunds\n\nRefunds take 14 days.\n' },
    env: { OPENAI_API_KEY: 'sk-rejected' },
  });
}

describe('holodeck ingest', () => {
  it('exits 2 (credentials) when the embeddings API answers 401, naming the setting', async () => {
    const agent = agentAt(rejecting);
    const outcome = await runHolodeckCli(['ingest', agent.file], agent.env);
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toContain('answered 401 (check the API key of embedding_provider)');
    expect(outcome.stderr).not.toContain('sk-rejected');
  });

  it('a port fetch refuses names embedding_provider.endpoint', async () => {
    const agent = agentAt('http://127.0.0.1:6000');
    const outcome = await runHolodeckCli(['ingest', agent.file], agent.env);
    expect(outcome.code).toBe(3);
    expect(outcome.stderr).toContain(
      'bad port (fetch refuses that port: use another port in embedding_provider.endpoint)',
    );
  });

  it('a .md file holding binary bytes is named with the byte and the fix (exit 5); the others are indexed', async () => {
    const agent = agentAt(embeddings.baseUrl);
    writeFileSync(
      path.join(agent.directory, 'docs/logo.md'),
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]),
    );
    const outcome = await runHolodeckCli(['ingest', agent.file], agent.env);
    expect(outcome.code).toBe(5);
    expect(outcome.stderr).toContain(
      'logo.md: holds binary data (a NUL byte at byte 4), not .md text: remove it from the source folder or convert it to UTF-8 text',
    );
    expect(outcome.stdout).toMatch(/^! /);
  });
});

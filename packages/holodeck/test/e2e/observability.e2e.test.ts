import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { reply, startFakeAnthropic, waitUntil } from '@holodeck/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invokeAgent } from './support/invoke-agent.js';

interface Export {
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A minimal OTLP/HTTP (JSON) collector that records what the CLI exports. */
async function startCollector() {
  const exports: Export[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString('utf8');
    });
    request.on('end', () => {
      exports.push({ path: request.url ?? '', headers: request.headers, body });
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    exports,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

let fake: Awaited<ReturnType<typeof startFakeAnthropic>>;
let collector: Awaited<ReturnType<typeof startCollector>>;
beforeAll(async () => {
  fake = await startFakeAnthropic();
  collector = await startCollector();
});
afterAll(async () => {
  await fake.close();
  await collector.close();
});

describe('observability → Claude Code OpenTelemetry', () => {
  it('exports the run’s metrics to the configured OTLP endpoint with the service name and headers', async () => {
    fake.script(reply('observed'));
    const result = await invokeAgent(fake.url, 'hi', {
      config: {
        observability: {
          enabled: true,
          service_name: 'support-bot',
          metrics: { export_interval_ms: 500 },
          exporters: {
            otlp: { endpoint: collector.url, protocol: 'http/json', headers: { 'x-team': 'acme' } },
          },
        },
      },
    });
    expect(result.response).toBe('observed');

    const metrics = await waitUntil(() => collector.exports.find((e) => e.path === '/v1/metrics'), {
      timeoutMs: 10_000,
      what: 'the metrics export',
      intervalMs: 100,
    }).catch((error: Error) => {
      throw new Error(
        `${error.message}; exports received: ${collector.exports.map((e) => e.path).join(', ')}`,
      );
    });
    expect(metrics?.headers['x-team']).toBe('acme');
    expect(metrics?.body).toContain('support-bot');
  });
});

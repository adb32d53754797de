import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type OtlpReceiver, otlpAttribute, startOtlpReceiver, waitUntil } from '@holodeck/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentOverHttp } from './support/agent-over-http.js';
import { RULES_FILE } from './support/gate-fixture.js';
import { startServerProcess } from './support/novarch-server-process.js';
import { createSecret, runNovarch } from './support/run-novarch-cli.js';

// A real `novarch serve` process exports OpenTelemetry over OTLP/HTTP JSON to a loopback receiver
// when the standard OTEL_* variables ask for it; none by default.

let directory = '';
let config = '';
let agentKey = '';
let receiver: OtlpReceiver;

beforeAll(async () => {
  directory = mkdtempSync(path.join(tmpdir(), 'novarch-otel-'));
  config = path.join(directory, 'novarch.yaml');
  writeFileSync(
    config,
    `hold_window_seconds: 60\nrules: [${JSON.stringify(RULES_FILE)}]\nserver:\n  store_url: sqlite:./server.db\n`,
  );
  agentKey = await createSecret([
    'keys',
    'create',
    '--config',
    config,
    '--tenant',
    'acme',
    '--name',
    'cs-bot',
  ]);
  receiver = await startOtlpReceiver();
});
afterAll(async () => {
  await receiver?.close();
  rmSync(directory, { recursive: true, force: true });
});

describe('novarch serve: OpenTelemetry', () => {
  it('exports decision spans and metrics with OTEL_TRACES_EXPORTER/OTEL_METRICS_EXPORTER=otlp', async () => {
    const server = await startServerProcess(['--config', config], {
      OTEL_TRACES_EXPORTER: 'otlp',
      OTEL_METRICS_EXPORTER: 'otlp',
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_METRIC_EXPORT_INTERVAL: '500',
    });
    expect(server.output()).toContain('; OpenTelemetry traces and metrics over OTLP)');
    const agent = agentOverHttp(server.url, agentKey);
    const sessionId = await agent.openSession();
    await agent.lookup(sessionId, 'C1');
    expect((await agent.refund(sessionId, 'C1', 900)).status).toBe(200);
    await waitUntil(
      () =>
        receiver.metrics.some(
          (metric) =>
            metric.name === 'novarch.holds.pending' &&
            metric.points.some((point) => Number(point.asInt ?? point.asDouble) === 1),
        ),
      {
        timeoutMs: 20_000,
        what: 'the pending holds gauge at the OTLP receiver',
      },
    );
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    const decision = receiver.spans.find((span) => span.name === 'novarch.decision');
    expect(decision && otlpAttribute(decision, 'novarch.verdict')).toBe('hold');
    expect(receiver.metrics.some((metric) => metric.name === 'novarch.decision.duration')).toBe(true);
  });

  it('exports nothing by default, and refuses an exporter it cannot honour (exit 2)', async () => {
    const before = receiver.contentTypes.length;
    const server = await startServerProcess(['--config', config], {
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    });
    expect(server.output()).not.toContain('OpenTelemetry');
    const agent = agentOverHttp(server.url, agentKey);
    await agent.openSession();
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(receiver.contentTypes.length).toBe(before);
    const refused = await runNovarch(['serve', '--config', config, '--listen', '127.0.0.1:0'], {
      OTEL_TRACES_EXPORTER: 'jaeger',
    });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      'OTEL_TRACES_EXPORTER=jaeger: Novarch exports over OTLP only; set it to otlp, or none (or unset it) for no export.',
    );
  });
});

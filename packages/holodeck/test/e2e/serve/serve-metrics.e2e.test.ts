import {
  chatReply,
  type OtlpDataPoint,
  type OtlpMetric,
  type OtlpReceiver,
  otlpAttribute,
  reply,
  startOtlpReceiver,
  waitUntil,
} from '@holodeck/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backendVariants } from '../both-backends/backend-variants.js';
import { runHolodeckCli } from '../support/run-holodeck-cli.js';
import { postJson, readSse, startServe } from './serve-harness.js';

// `holodeck serve` exports OpenTelemetry metrics over OTLP/HTTP (JSON) when agent.yaml's
// observability or OTEL_METRICS_EXPORTER=otlp asks for them, to a loopback OTLP receiver here:
// turn durations, time to first chunk, tokens, turns by outcome and protocol, live sessions; with
// the resource of its spans; periodically, and once more at SIGTERM.

type Attributes = Record<string, string>;

/** The newest exported point of `name` whose attributes include `attributes` (cumulative: the total). */
function latest(metrics: OtlpMetric[], name: string, attributes: Attributes = {}): OtlpDataPoint | undefined {
  for (let index = metrics.length - 1; index >= 0; index -= 1) {
    const metric = metrics[index];
    if (metric?.name !== name) continue;
    const point = metric.points.find((candidate) =>
      Object.entries(attributes).every(([key, value]) => otlpAttribute(candidate, key) === value),
    );
    if (point) return point;
  }
  return undefined;
}

const count = (point: OtlpDataPoint | undefined) => Number(point?.count ?? point?.asInt ?? point?.asDouble);
const resourceOf = (item: { resource?: OtlpMetric['resource'] }, key: string) =>
  otlpAttribute({ attributes: item.resource ?? [] }, key);

describe.each(backendVariants())('holodeck serve: OpenTelemetry metrics ($name backend)', (variant) => {
  let receiver: OtlpReceiver;
  beforeAll(async () => {
    await variant.start();
    receiver = await startOtlpReceiver();
  });
  afterAll(async () => {
    await variant.close();
    await receiver.close();
  });

  it('turns, tokens, durations and live sessions, by protocol and outcome, with the resource of the spans', async () => {
    const agent = variant.agent({
      observability: {
        enabled: true,
        service_name: 'metered',
        traces: {},
        metrics: { export_interval_ms: 300 },
        exporters: { otlp: { endpoint: receiver.url, protocol: 'http/json' } },
      },
      // Claude's first turn includes the CLI's start-up (about a second): its limit leaves room for it.
      serve: { turn_timeout: variant.name === 'claude' ? '5s' : '1s' },
    });
    const slow =
      variant.name === 'claude'
        ? reply('far too late', { delayMs: 20_000 })
        : chatReply('far too late', { delayMs: 8_000 });
    variant.script(
      variant.respond(() => ({ kind: 'reply', text: 'Hello there.', tokens: { input: 120, output: 9 } })),
      variant.respond(() => ({ kind: 'reply', text: 'Hi again.', tokens: { input: 200, output: 11 } })),
      slow,
    );
    const server = await startServe(agent, ['--instance-id', 'meter-a']);
    const { metrics } = receiver;
    try {
      expect(server.stderr()).toContain(
        `metrics: turns, durations, tokens and live sessions, every 300 ms to ${receiver.url}/v1/metrics`,
      );
      const id = ((await (await postJson(`${server.url}/v1/sessions`, {})).json()) as { id: string }).id;
      const streamed = await readSse(
        await postJson(`${server.url}/v1/sessions/${id}/messages`, { message: 'Hello' }, undefined, {
          accept: 'text/event-stream',
        }),
      );
      expect(streamed.at(-1)?.event).toBe('finish');
      const second = await postJson(`${server.url}/v1/responses`, { model: 'agent', input: 'Hi' });
      expect(second.status).toBe(200);

      const rest = { 'holodeck.serve.protocol': 'rest' };
      const responses = { 'holodeck.serve.protocol': 'responses' };
      // Each turn adds its own tokens: 120 + 200 in, 9 + 11 out, one histogram point per turn.
      const input = await waitUntil(
        () => {
          const point = latest(metrics, 'gen_ai.client.token.usage', {
            ...responses,
            'gen_ai.token.type': 'input',
          });
          return point ? point : undefined;
        },
        { timeoutMs: 20_000, what: 'the tokens of the Responses turn at the OTLP receiver' },
      );
      expect(input.sum).toBe(200);
      expect(count(input)).toBe(1);
      expect(
        latest(metrics, 'gen_ai.client.token.usage', { ...rest, 'gen_ai.token.type': 'input' })?.sum,
      ).toBe(120);
      expect(
        latest(metrics, 'gen_ai.client.token.usage', { ...rest, 'gen_ai.token.type': 'output' })?.sum,
      ).toBe(9);
      expect(
        latest(metrics, 'gen_ai.client.token.usage', { ...responses, 'gen_ai.token.type': 'output' })?.sum,
      ).toBe(11);
      const ok = { 'holodeck.turn.outcome': 'ok' };
      expect(count(latest(metrics, 'holodeck.serve.turns', { ...rest, ...ok }))).toBe(1);
      expect(count(latest(metrics, 'holodeck.serve.turns', { ...responses, ...ok }))).toBe(1);
      const duration = latest(metrics, 'gen_ai.client.operation.duration', {
        ...rest,
        'gen_ai.operation.name': 'invoke_agent',
        'gen_ai.agent.name': 'e2e-agent',
        'gen_ai.provider.name': variant.name === 'claude' ? 'anthropic' : 'openai',
      });
      expect(count(duration)).toBe(1);
      const firstChunk = latest(metrics, 'gen_ai.client.operation.time_to_first_chunk', rest);
      expect(count(firstChunk)).toBe(1);
      // The first chunk comes within its turn.
      expect(firstChunk?.sum).toBeGreaterThan(0);
      expect(firstChunk?.sum).toBeLessThanOrEqual(duration?.sum ?? 0);
      // The REST session and the Responses one are live; once the REST one is deleted, one is.
      expect(latest(metrics, 'holodeck.serve.sessions.active')?.asInt).toBe(2);
      expect((await fetch(`${server.url}/v1/sessions/${id}`, { method: 'DELETE' })).status).toBe(204);
      await waitUntil(() => Number(latest(metrics, 'holodeck.serve.sessions.active')?.asInt) === 1, {
        timeoutMs: 10_000,
        what: 'the live sessions gauge to drop to 1',
      });

      // A turn cut at serve.turn_timeout counts as a limit, its duration labelled with it.
      const limited = ((await (await postJson(`${server.url}/v1/sessions`, {})).json()) as { id: string }).id;
      const cut = (await (
        await postJson(`${server.url}/v1/sessions/${limited}/messages`, { message: 'take forever' })
      ).json()) as { status: string };
      expect(cut.status).toBe('failed');
      const limit = await waitUntil(
        () => latest(metrics, 'holodeck.serve.turns', { ...rest, 'holodeck.turn.outcome': 'limit' }),
        { timeoutMs: 20_000, what: 'the limited turn at the OTLP receiver' },
      );
      expect(count(limit)).toBe(1);
      expect(
        latest(metrics, 'gen_ai.client.operation.duration', { ...rest, 'error.type': 'limit' })?.sum,
      ).toBeGreaterThanOrEqual(1);
      // No session id or message text in any metric.
      expect(JSON.stringify(metrics)).not.toContain(id);
      expect(JSON.stringify(metrics)).not.toContain('Hello');
    } finally {
      expect(await server.stop()).toBe(0);
      variant.discardScript();
    }
    // Metrics and spans name the same service and instance.
    const metric = metrics.find((entry) => entry.name === 'holodeck.serve.turns');
    const span = await waitUntil(
      () => receiver.spans.find((entry) => entry.name === 'invoke_agent e2e-agent'),
      { timeoutMs: 10_000, what: 'a turn span' },
    );
    for (const key of ['service.name', 'service.version', 'service.instance.id'])
      expect(resourceOf(metric ?? { resource: [] }, key)).toBe(resourceOf(span, key));
    expect(resourceOf(span, 'service.name')).toBe('metered');
    expect(resourceOf(span, 'service.instance.id')).toBe('meter-a');
    expect(receiver.contentTypes.every((type) => type.startsWith('application/json'))).toBe(true);
  });

  it('OTEL_METRICS_EXPORTER=otlp turns them on without agent.yaml; SIGTERM exports what the interval has not yet', async () => {
    variant.script(variant.respond(() => ({ kind: 'reply', text: 'Hi.', tokens: { input: 40, output: 3 } })));
    const server = await startServe(variant.agent(), ['--instance-id', 'meter-b'], {
      OTEL_METRICS_EXPORTER: 'otlp',
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_SERVICE_NAME: 'from-env',
      // Longer than the test: the only export is the one at shutdown.
      OTEL_METRIC_EXPORT_INTERVAL: '600000',
    });
    const ours = () =>
      receiver.metrics.filter((metric) => resourceOf(metric, 'service.instance.id') === 'meter-b');
    try {
      expect(server.stderr()).toContain(
        `metrics: turns, durations, tokens and live sessions, every 600000 ms to ${receiver.url}/v1/metrics`,
      );
      expect(server.stderr()).not.toContain('tracing:');
      const id = ((await (await postJson(`${server.url}/v1/sessions`, {})).json()) as { id: string }).id;
      expect((await postJson(`${server.url}/v1/sessions/${id}/messages`, { message: 'Hi' })).status).toBe(
        200,
      );
      expect(ours()).toEqual([]);
    } finally {
      expect(await server.stop()).toBe(0);
    }
    const output = latest(ours(), 'gen_ai.client.token.usage', { 'gen_ai.token.type': 'output' });
    expect(output?.sum).toBe(3);
    expect(count(latest(ours(), 'holodeck.serve.turns', { 'holodeck.turn.outcome': 'ok' }))).toBe(1);
    expect(resourceOf(ours()[0] ?? {}, 'service.name')).toBe('from-env');
    variant.checkAndReset();
  });
});

describe('holodeck serve: metrics settings it cannot honour', () => {
  it('refuses an exporter or endpoint it does not have, before serving', async () => {
    const fake = backendVariants().find((variant) => variant.name === 'ai-sdk');
    if (!fake) throw new Error('no AI SDK variant');
    await fake.start();
    try {
      const agent = fake.agent();
      const prometheus = await runHolodeckCli(['serve', agent.file, '--port', '0'], {
        ...agent.env,
        OTEL_METRICS_EXPORTER: 'prometheus',
      });
      expect(prometheus.code).toBe(2);
      expect(prometheus.stderr).toContain(
        'OTEL_METRICS_EXPORTER: holodeck serve has no "prometheus" exporter: it exports metrics over OTLP/HTTP (JSON) only',
      );
      expect(prometheus.stderr).toContain(
        'hint: set OTEL_METRICS_EXPORTER=otlp (with OTEL_EXPORTER_OTLP_ENDPOINT), or none (or leave it unset) to export no metrics',
      );
      const grpc = await runHolodeckCli(['serve', agent.file, '--port', '0'], {
        ...agent.env,
        OTEL_METRICS_EXPORTER: 'otlp',
        OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: 'grpc://collector:4317',
      });
      expect(grpc.code).toBe(2);
      expect(grpc.stderr).toContain(
        'OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: is a grpc: URL; holodeck serve sends metrics over OTLP/HTTP (JSON), to an http: or https: URL',
      );
      expect(grpc.stderr).not.toContain('serving');
    } finally {
      await fake.close();
    }
  });
});

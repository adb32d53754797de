import { describe, expect, it } from 'vitest';
import type { LoadedAgent } from '../../../src/config/index.js';
import { serveMetricsPlan } from '../../../src/serve/serve-metrics.js';

// When `holodeck serve` exports metrics, where to, how often; and the settings it refuses. The
// configs are as the schema leaves them (a present block is enabled).
function agent(observability?: Record<string, unknown>): LoadedAgent {
  return { config: { name: 'shop', observability } } as unknown as LoadedAgent;
}
const METRICS = {
  enabled: true,
  service_name: 'shop-svc',
  metrics: { enabled: true, export_interval_ms: 5000 },
  exporters: {
    otlp: { enabled: true, endpoint: 'http://collector:4318/', protocol: 'http/json', headers: { a: 'b' } },
  },
};
const ON = { OTEL_METRICS_EXPORTER: 'otlp' };

describe('serveMetricsPlan', () => {
  it('is off by default, without a metrics block, and with OTEL_SDK_DISABLED even when asked for', () => {
    expect(serveMetricsPlan(agent(), {})).toBeUndefined();
    expect(serveMetricsPlan(agent(), { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' })).toBeUndefined();
    expect(serveMetricsPlan(agent({ ...METRICS, metrics: undefined }), {})).toBeUndefined();
    expect(serveMetricsPlan(agent({ ...METRICS, enabled: false }), {})).toBeUndefined();
    expect(serveMetricsPlan(agent(METRICS), { OTEL_SDK_DISABLED: 'TRUE' })).toBeUndefined();
    expect(serveMetricsPlan(agent(), { OTEL_METRICS_EXPORTER: 'none' })).toBeUndefined();
  });

  it("takes agent.yaml's endpoint, headers, service name and interval over the OTEL_* variables", () => {
    const plan = serveMetricsPlan(agent(METRICS), {
      OTEL_SERVICE_NAME: 'from-env',
      OTEL_METRIC_EXPORT_INTERVAL: '100',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://other:4318',
    });
    expect(plan).toEqual({
      options: {
        serviceName: 'shop-svc',
        serviceVersion: expect.any(String),
        url: 'http://collector:4318/v1/metrics',
        headers: { a: 'b' },
        exportIntervalMs: 5000,
      },
      destination: 'http://collector:4318/v1/metrics',
    });
  });

  it('with OTEL_METRICS_EXPORTER=otlp alone: the OTEL_* endpoint, service name and interval; a minute by default', () => {
    const plan = serveMetricsPlan(agent(), {
      ...ON,
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318/',
      OTEL_SERVICE_NAME: 'svc',
      OTEL_METRIC_EXPORT_INTERVAL: '250',
    });
    expect(plan?.options).toMatchObject({
      serviceName: 'svc',
      url: 'http://127.0.0.1:4318/v1/metrics',
      exportIntervalMs: 250,
    });
    expect(serveMetricsPlan(agent(), ON)?.options).toMatchObject({
      serviceName: 'shop',
      url: 'http://localhost:4318/v1/metrics',
      exportIntervalMs: 60_000,
    });
    expect(
      serveMetricsPlan(agent(), {
        ...ON,
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://base:4318',
        OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: 'https://metrics.example/otlp/v1/metrics',
      })?.destination,
    ).toBe('https://metrics.example/otlp/v1/metrics');
  });

  it("says once that agent.yaml's gRPC protocol is the Claude CLI's, not serve's", () => {
    const plan = serveMetricsPlan(
      agent({ ...METRICS, exporters: { otlp: { enabled: true, protocol: 'grpc' } } }),
      {},
    );
    expect(plan?.note).toBe(
      "holodeck serve exports its spans and metrics over OTLP http/json; observability.exporters.otlp.protocol grpc applies to the Claude CLI's own telemetry only",
    );
  });

  it.each([
    [
      { OTEL_METRICS_EXPORTER: 'prometheus' },
      'OTEL_METRICS_EXPORTER: holodeck serve has no "prometheus" exporter: it exports metrics over OTLP/HTTP (JSON) only\n    hint: set OTEL_METRICS_EXPORTER=otlp (with OTEL_EXPORTER_OTLP_ENDPOINT), or none (or leave it unset) to export no metrics',
    ],
    [
      { OTEL_METRICS_EXPORTER: 'otlp,console' },
      'OTEL_METRICS_EXPORTER: holodeck serve has no "console" exporter',
    ],
    [
      { ...ON, OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: 'grpc://collector:4317' },
      "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: is a grpc: URL; holodeck serve sends metrics over OTLP/HTTP (JSON), to an http: or https: URL\n    hint: give the collector's OTLP/HTTP URL (port 4318 by default, not gRPC's 4317), e.g. http://collector:4318/v1/metrics",
    ],
    [
      { ...ON, OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: '//collector:4318' },
      "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: is not a URL\n    hint: give the collector's OTLP/HTTP URL, e.g. http://collector:4318/v1/metrics",
    ],
    [
      { ...ON, OTEL_EXPORTER_OTLP_ENDPOINT: 'not a url' },
      "OTEL_EXPORTER_OTLP_ENDPOINT: is not a URL\n    hint: give the collector's OTLP/HTTP URL, e.g. http://collector:4318",
    ],
    [
      { ...ON, OTEL_EXPORTER_OTLP_METRICS_PROTOCOL: 'grpc' },
      'OTEL_EXPORTER_OTLP_METRICS_PROTOCOL: holodeck serve sends metrics over OTLP http/json, not grpc\n    hint: set OTEL_EXPORTER_OTLP_METRICS_PROTOCOL=http/json or leave it unset',
    ],
    [
      { ...ON, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf' },
      'OTEL_EXPORTER_OTLP_PROTOCOL: holodeck serve sends metrics over OTLP http/json, not http/protobuf',
    ],
    [
      { ...ON, OTEL_METRIC_EXPORT_INTERVAL: '1.5s' },
      'OTEL_METRIC_EXPORT_INTERVAL: "1.5s" is not a whole number of milliseconds ≥ 1\n    hint: give how often metrics are exported in ms, e.g. 60000 (the default)',
    ],
    [
      { ...ON, OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE: 'deltas' },
      'OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE: "deltas" is not a temporality the OTLP exporter knows\n    hint: set it to cumulative (the default), delta or lowmemory',
    ],
  ])('refuses %j', (env, message) => {
    expect(() => serveMetricsPlan(agent(), env)).toThrow(message);
  });

  it('never repeats an endpoint in its message (it may carry a token)', () => {
    expect(() =>
      serveMetricsPlan(agent(), { ...ON, OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: 'ftp://x/?token=s3cret' }),
    ).toThrow(/^(?!.*s3cret)/s);
  });

  it('refuses a wrong exporter variable even when agent.yaml turns metrics on', () => {
    expect(() => serveMetricsPlan(agent(METRICS), { OTEL_METRICS_EXPORTER: 'console' })).toThrow(
      'OTEL_METRICS_EXPORTER: holodeck serve has no "console" exporter',
    );
  });
});

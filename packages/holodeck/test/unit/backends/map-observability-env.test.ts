import { describe, expect, it } from 'vitest';
import { mapObservabilityEnv } from '../../../src/backends/claude/map-observability-env.js';
import { ObservabilityConfigSchema } from '../../../src/config/index.js';

const parse = (value: unknown) => ObservabilityConfigSchema.parse(value);

describe('mapObservabilityEnv', () => {
  it('sets nothing when observability is off', () => {
    expect(mapObservabilityEnv(undefined)).toEqual({ env: {}, ignored: [] });
    expect(mapObservabilityEnv(parse({ enabled: false, service_name: 'x' }))).toEqual({
      env: {},
      ignored: [],
    });
  });

  it('maps exporters, intervals, content capture, service name and headers', () => {
    const { env, ignored } = mapObservabilityEnv(
      parse({
        enabled: true,
        service_name: 'bot',
        traces: { capture_content: true },
        metrics: { export_interval_ms: 2000 },
        logs: { level: 'info' },
        exporters: {
          otlp: { endpoint: 'http://collector:4318', protocol: 'http/protobuf', headers: { 'x-key': 'a b' } },
          console: {},
        },
      }),
    );
    expect(env).toEqual({
      CLAUDE_CODE_ENABLE_TELEMETRY: '1',
      OTEL_METRICS_EXPORTER: 'otlp,console',
      OTEL_LOGS_EXPORTER: 'otlp,console',
      OTEL_TRACES_EXPORTER: 'otlp,console',
      OTEL_METRIC_EXPORT_INTERVAL: '2000',
      OTEL_LOG_USER_PROMPTS: '1',
      OTEL_SERVICE_NAME: 'bot',
      OTEL_RESOURCE_ATTRIBUTES: 'service.name=bot',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
      OTEL_EXPORTER_OTLP_HEADERS: 'x-key=a%20b',
    });
    expect(ignored).toEqual(['observability.logs.level']);
  });

  it('turns off the signals the user disabled', () => {
    const { env } = mapObservabilityEnv(
      parse({ enabled: true, metrics: { enabled: false }, exporters: { console: {} } }),
    );
    expect(env.OTEL_METRICS_EXPORTER).toBeUndefined();
    expect(env.OTEL_LOGS_EXPORTER).toBe('console');
  });
});

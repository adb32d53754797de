import { describe, expect, it } from 'vitest';
import type { LoadedAgent } from '../../../src/config/index.js';
import { serveTracingPlan } from '../../../src/serve/serve-tracing.js';

// When `holodeck serve` exports spans, where to, and what they may carry.
function agent(observability?: Record<string, unknown>): LoadedAgent {
  return { config: { name: 'shop', observability } } as unknown as LoadedAgent;
}
const TRACES = {
  enabled: true,
  traces: { enabled: true, capture_content: true, redaction_patterns: ['sk-[a-z0-9]+'], sample_rate: 0.5 },
  exporters: {
    otlp: { enabled: true, endpoint: 'http://collector:4318', protocol: 'grpc', headers: { a: 'b' } },
  },
};

describe('serveTracingPlan', () => {
  it('is off by default, and with OTEL_SDK_DISABLED even when asked for', () => {
    expect(serveTracingPlan(agent(), {})).toBeUndefined();
    expect(serveTracingPlan(agent({ enabled: true, traces: { enabled: true } }), {})).toBeUndefined();
    expect(serveTracingPlan(agent(TRACES), { OTEL_SDK_DISABLED: 'true' })).toBeUndefined();
  });

  it("takes agent.yaml's endpoint, headers, service, sample rate and redaction; says the protocol is the CLI's", () => {
    const plan = serveTracingPlan(agent({ ...TRACES, service_name: 'shop-svc' }), {
      OTEL_SERVICE_NAME: 'from-env',
    });
    expect(plan?.options).toMatchObject({
      serviceName: 'shop-svc',
      url: 'http://collector:4318/v1/traces',
      headers: { a: 'b' },
      sampleRate: 0.5,
    });
    expect(plan?.captureContent).toBe(true);
    expect(plan?.redact('key sk-abc123 here')).toBe('key [REDACTED] here');
    expect(plan?.note).toBe(
      "holodeck serve exports its spans and metrics over OTLP http/json; observability.exporters.otlp.protocol grpc applies to the Claude CLI's own telemetry only",
    );
  });

  it('with OTEL_TRACES_EXPORTER=otlp alone: the OTEL_* endpoint and service name, no content', () => {
    const plan = serveTracingPlan(agent(), {
      OTEL_TRACES_EXPORTER: 'none, otlp',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318/',
      OTEL_SERVICE_NAME: 'svc',
    });
    expect(plan?.options.serviceName).toBe('svc');
    expect(plan?.options.url).toBe('http://127.0.0.1:4318/v1/traces');
    expect(plan?.destination).toBe('http://127.0.0.1:4318/v1/traces');
    expect(plan?.captureContent).toBe(false);
    expect(plan?.note).toBeUndefined();
  });

  it('refuses an exporter it does not have rather than ignoring it (console beside otlp too)', () => {
    expect(() => serveTracingPlan(agent(), { OTEL_TRACES_EXPORTER: 'console, otlp' })).toThrow(
      'OTEL_TRACES_EXPORTER: holodeck serve has no "console" exporter: it exports traces over OTLP/HTTP (JSON) only\n    hint: set OTEL_TRACES_EXPORTER=otlp (with OTEL_EXPORTER_OTLP_ENDPOINT), or none (or leave it unset) to export no traces',
    );
  });

  it('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is taken as it is, before the base endpoint', () => {
    const plan = serveTracingPlan(agent(), {
      OTEL_TRACES_EXPORTER: 'otlp',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://base:4318',
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://traces.example/ingest',
    });
    expect(plan?.destination).toBe('https://traces.example/ingest');
  });
});

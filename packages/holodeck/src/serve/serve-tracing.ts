import type { LoadedAgent } from '../config/index.js';
import { holodeckVersion } from '../holodeck-version.js';
import { otlpTracesUrl } from '../telemetry/otlp-traces-url.js';
import type { TracingOptions } from '../telemetry/start-tracing.js';

const REDACTED = '[REDACTED]';

/** How `holodeck serve` traces, when it does: the exporter's options and what spans carry. */
export interface ServeTracingPlan {
  options: TracingOptions;
  captureContent: boolean;
  redact: (text: string) => string;
  /** Where spans go, for the start-up line. */
  destination: string;
  /** A setting serve's exporter does not use, said once at start-up. */
  note?: string;
}

/**
 * Whether and how `holodeck serve` exports spans (off by default): on with agent.yaml
 * `observability` (enabled, a `traces` block, the `otlp` exporter) or with the standard
 * OTEL_TRACES_EXPORTER=otlp; never with OTEL_SDK_DISABLED=true. agent.yaml's endpoint, headers,
 * service name and sample rate win over the OTEL_* variables, which apply otherwise.
 */
export function serveTracingPlan(
  agent: LoadedAgent,
  env: Readonly<Record<string, string | undefined>>,
): ServeTracingPlan | undefined {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return undefined;
  const observability = agent.config.observability;
  const otlp = observability?.exporters?.otlp;
  const fromConfig = Boolean(observability?.enabled && observability.traces?.enabled && otlp?.enabled);
  const fromEnv = (env.OTEL_TRACES_EXPORTER ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .includes('otlp');
  if (!fromConfig && !fromEnv) return undefined;
  const traces = fromConfig ? observability?.traces : undefined;
  const url = fromConfig && otlp?.endpoint ? otlpTracesUrl(otlp.endpoint) : undefined;
  const patterns = (traces?.redaction_patterns ?? []).map((source) => new RegExp(source, 'g'));
  const serviceName =
    (fromConfig ? observability?.service_name : undefined) ?? env.OTEL_SERVICE_NAME ?? agent.config.name;
  return {
    options: {
      serviceName,
      serviceVersion: holodeckVersion(),
      ...(url ? { url } : {}),
      ...(fromConfig && otlp?.headers ? { headers: otlp.headers } : {}),
      ...(traces?.sample_rate !== undefined ? { sampleRate: traces.sample_rate } : {}),
    },
    captureContent: traces?.capture_content ?? false,
    redact: (text) => patterns.reduce((value, pattern) => value.replace(pattern, REDACTED), text),
    destination:
      url ??
      env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ??
      (env.OTEL_EXPORTER_OTLP_ENDPOINT
        ? otlpTracesUrl(env.OTEL_EXPORTER_OTLP_ENDPOINT)
        : 'http://localhost:4318/v1/traces'),
    ...(fromConfig && otlp?.protocol !== 'http/json'
      ? {
          note: `holodeck serve exports its spans over OTLP http/json; observability.exporters.otlp.protocol ${otlp?.protocol} applies to the Claude CLI's own telemetry only`,
        }
      : {}),
  };
}

import type { LoadedAgent } from '../config/index.js';
import { holodeckVersion } from '../holodeck-version.js';
import { type OtlpSignal, otlpSignalUrl } from '../telemetry/otlp-signal-url.js';
import { checkOtlpProtocolEnv, otelDisabled, otelExporterWanted, otlpUrlFromEnv } from './serve-otel-env.js';

/** Where one OpenTelemetry signal of `holodeck serve` goes, and the resource it is labelled with. */
export interface OtlpSignalPlan {
  /** Whether agent.yaml's observability turned it on (else OTEL_<SIGNAL>_EXPORTER=otlp did). */
  fromConfig: boolean;
  /** The OTLP/HTTP URL it is posted to (also shown in the start-up line). */
  url: string;
  /** agent.yaml's exporter headers; without them the exporter reads OTEL_EXPORTER_OTLP_HEADERS. */
  headers?: Record<string, string>;
  serviceName: string;
  serviceVersion: string;
  /** A setting serve's exporter does not use, said once at start-up. */
  note?: string;
}

/**
 * Whether and where `holodeck serve` exports `signal` (off by default): on with agent.yaml
 * `observability` (enabled, the signal's block enabled, the `otlp` exporter) or with the standard
 * OTEL_<SIGNAL>_EXPORTER=otlp; never with OTEL_SDK_DISABLED=true. agent.yaml's endpoint, headers
 * and service name win over the OTEL_* variables, which apply otherwise. Values serve cannot
 * honour (another exporter, gRPC) are refused.
 */
export function otlpSignalPlan(
  agent: LoadedAgent,
  env: Readonly<Record<string, string | undefined>>,
  signal: OtlpSignal,
): OtlpSignalPlan | undefined {
  if (otelDisabled(env)) return undefined;
  const observability = agent.config.observability;
  const otlp = observability?.exporters?.otlp;
  const block = signal === 'traces' ? observability?.traces : observability?.metrics;
  const fromConfig = Boolean(observability?.enabled && block?.enabled && otlp?.enabled);
  // Read (and checked) even when agent.yaml turns the signal on: a wrong value is refused either way.
  const fromEnv = otelExporterWanted(env, signal);
  if (!fromConfig && !fromEnv) return undefined;
  checkOtlpProtocolEnv(env, signal);
  const url =
    fromConfig && otlp?.endpoint ? otlpSignalUrl(otlp.endpoint, signal) : otlpUrlFromEnv(env, signal);
  return {
    fromConfig,
    url,
    ...(fromConfig && otlp?.headers ? { headers: otlp.headers } : {}),
    serviceName:
      (fromConfig ? observability?.service_name : undefined) ?? env.OTEL_SERVICE_NAME ?? agent.config.name,
    serviceVersion: holodeckVersion(),
    ...(fromConfig && otlp?.protocol !== 'http/json'
      ? {
          note: `holodeck serve exports its spans and metrics over OTLP http/json; observability.exporters.otlp.protocol ${otlp?.protocol} applies to the Claude CLI's own telemetry only`,
        }
      : {}),
  };
}

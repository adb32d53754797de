import { UsageError } from '../errors.js';
import { type OtlpSignal, otlpSignalUrl } from '../telemetry/otlp-signal-url.js';

type Env = Readonly<Record<string, string | undefined>>;

const EXPORTER_VARIABLE = { traces: 'OTEL_TRACES_EXPORTER', metrics: 'OTEL_METRICS_EXPORTER' } as const;
const ENDPOINT_VARIABLE = {
  traces: 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
  metrics: 'OTEL_EXPORTER_OTLP_METRICS_ENDPOINT',
} as const;
const PROTOCOL_VARIABLE = {
  traces: 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL',
  metrics: 'OTEL_EXPORTER_OTLP_METRICS_PROTOCOL',
} as const;

/** Whether OTEL_SDK_DISABLED=true turns every signal off. */
export function otelDisabled(env: Env): boolean {
  return env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true';
}

/**
 * Whether OTEL_TRACES_EXPORTER / OTEL_METRICS_EXPORTER asks for `otlp`. `none` and unset ask for
 * nothing; any other exporter (console, prometheus, zipkin, …) is refused: serve has none of them,
 * and a setting that silently does nothing is worse than an error.
 */
export function otelExporterWanted(env: Env, signal: OtlpSignal): boolean {
  const name = EXPORTER_VARIABLE[signal];
  const values = (env[name] ?? '')
    .split(',')
    .map((value) => value.trim().toLowerCase())
    .filter((value) => value !== '');
  const unknown = values.filter((value) => value !== 'otlp' && value !== 'none');
  if (unknown.length > 0)
    throw new UsageError(
      name,
      `holodeck serve has no "${unknown.join('", "')}" exporter: it exports ${signal} over OTLP/HTTP (JSON) only`,
      `set ${name}=otlp (with OTEL_EXPORTER_OTLP_ENDPOINT), or none (or leave it unset) to export no ${signal}`,
    );
  return values.includes('otlp');
}

/**
 * The OTLP/HTTP URL of `signal` the standard variables give: `OTEL_EXPORTER_OTLP_<SIGNAL>_ENDPOINT`
 * as it is, else `OTEL_EXPORTER_OTLP_ENDPOINT` + `/v1/<signal>`, else the OTLP default on
 * localhost. A URL that is not http(s) (a gRPC `grpc://` one, a typo) is refused; the value is not
 * repeated in the message, since collector URLs may carry a token.
 */
export function otlpUrlFromEnv(env: Env, signal: OtlpSignal): string {
  for (const name of [ENDPOINT_VARIABLE[signal], 'OTEL_EXPORTER_OTLP_ENDPOINT'] as const) {
    const value = env[name]?.trim();
    if (value === undefined || value === '') continue;
    let protocol: string;
    try {
      protocol = new URL(value).protocol;
    } catch {
      throw new UsageError(
        name,
        'is not a URL',
        `give the collector's OTLP/HTTP URL, e.g. http://collector:4318${name === 'OTEL_EXPORTER_OTLP_ENDPOINT' ? '' : `/v1/${signal}`}`,
      );
    }
    if (protocol !== 'http:' && protocol !== 'https:')
      throw new UsageError(
        name,
        `is a ${protocol.replace(/:$/, '')}: URL; holodeck serve sends ${signal} over OTLP/HTTP (JSON), to an http: or https: URL`,
        `give the collector's OTLP/HTTP URL (port 4318 by default, not gRPC's 4317), e.g. http://collector:4318${name === 'OTEL_EXPORTER_OTLP_ENDPOINT' ? '' : `/v1/${signal}`}`,
      );
    return name === 'OTEL_EXPORTER_OTLP_ENDPOINT' ? otlpSignalUrl(value, signal) : value;
  }
  return `http://localhost:4318/v1/${signal}`;
}

/** Refuses an OTLP protocol variable other than http/json: serve's exporters speak nothing else. */
export function checkOtlpProtocolEnv(env: Env, signal: OtlpSignal): void {
  for (const name of ['OTEL_EXPORTER_OTLP_PROTOCOL', PROTOCOL_VARIABLE[signal]] as const) {
    const value = env[name]?.trim();
    if (value !== undefined && value !== '' && value !== 'http/json')
      throw new UsageError(
        name,
        `holodeck serve sends ${signal} over OTLP http/json, not ${value}`,
        `set ${name}=http/json or leave it unset`,
      );
  }
}

/** OTEL_METRIC_EXPORT_INTERVAL in ms, checked; undefined when unset. */
export function metricExportIntervalFromEnv(env: Env): number | undefined {
  const value = env.OTEL_METRIC_EXPORT_INTERVAL?.trim();
  if (value === undefined || value === '') return undefined;
  const ms = Number(value);
  if (!Number.isInteger(ms) || ms < 1)
    throw new UsageError(
      'OTEL_METRIC_EXPORT_INTERVAL',
      `"${value}" is not a whole number of milliseconds ≥ 1`,
      'give how often metrics are exported in ms, e.g. 60000 (the default)',
    );
  return ms;
}

/**
 * OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE, which the OTLP exporter reads itself but would
 * ignore (cumulative) when misspelt: refused instead.
 */
export function checkTemporalityEnv(env: Env): void {
  const name = 'OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE';
  const value = env[name]?.trim();
  if (value === undefined || value === '') return;
  if (!['cumulative', 'delta', 'lowmemory'].includes(value.toLowerCase()))
    throw new UsageError(
      name,
      `"${value}" is not a temporality the OTLP exporter knows`,
      'set it to cumulative (the default), delta or lowmemory',
    );
}

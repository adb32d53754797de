import { OperatorUsageError } from '../errors.js';

/** Telemetry as the standard `OTEL_*` variables ask for it; undefined when they ask for none. */
export interface TelemetrySettings {
  serviceName: string;
  traces: boolean;
  metrics: boolean;
  /** OTEL_METRIC_EXPORT_INTERVAL, in ms. */
  metricExportIntervalMs?: number;
}

const EXPORTERS = new Set(['otlp', 'none']);

/**
 * Reads the standard variables. Off by default: traces need `OTEL_TRACES_EXPORTER=otlp`, metrics
 * `OTEL_METRICS_EXPORTER=otlp`; `OTEL_SDK_DISABLED=true` turns both off. Where they go is read by
 * the OTLP exporters themselves (`OTEL_EXPORTER_OTLP_ENDPOINT`, `…_TRACES_ENDPOINT`,
 * `…_METRICS_ENDPOINT`, `OTEL_EXPORTER_OTLP_HEADERS`). A value Novarch cannot honour (another
 * exporter, a protocol other than http/json) is refused, never ignored.
 */
export function telemetrySettings(
  env: Readonly<Record<string, string | undefined>>,
): TelemetrySettings | undefined {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return undefined;
  const wants = (name: 'OTEL_TRACES_EXPORTER' | 'OTEL_METRICS_EXPORTER') => {
    const values = (env[name] ?? '')
      .split(',')
      .map((value) => value.trim().toLowerCase())
      .filter((value) => value !== '');
    const unknown = values.filter((value) => !EXPORTERS.has(value));
    if (unknown.length > 0)
      throw new OperatorUsageError(
        `${name}=${env[name]}: Novarch exports over OTLP only; set it to otlp, or none (or unset it) for no export.`,
      );
    return values.includes('otlp');
  };
  const traces = wants('OTEL_TRACES_EXPORTER');
  const metrics = wants('OTEL_METRICS_EXPORTER');
  if (!traces && !metrics) return undefined;
  for (const name of [
    'OTEL_EXPORTER_OTLP_PROTOCOL',
    'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL',
    'OTEL_EXPORTER_OTLP_METRICS_PROTOCOL',
  ]) {
    const protocol = env[name]?.trim();
    if (protocol !== undefined && protocol !== '' && protocol !== 'http/json')
      throw new OperatorUsageError(
        `${name}=${protocol}: Novarch sends OTLP over HTTP as JSON; set it to http/json or unset it.`,
      );
  }
  const interval = env.OTEL_METRIC_EXPORT_INTERVAL?.trim();
  let metricExportIntervalMs: number | undefined;
  if (interval !== undefined && interval !== '') {
    metricExportIntervalMs = Number(interval);
    if (!Number.isInteger(metricExportIntervalMs) || metricExportIntervalMs < 1)
      throw new OperatorUsageError(
        `OTEL_METRIC_EXPORT_INTERVAL=${interval}: expected a whole number of ms ≥ 1.`,
      );
  }
  return {
    serviceName: env.OTEL_SERVICE_NAME?.trim() || 'novarch',
    traces,
    metrics,
    ...(metricExportIntervalMs === undefined ? {} : { metricExportIntervalMs }),
  };
}

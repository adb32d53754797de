import type { ObservabilityConfig } from '../../config/index.js';

/**
 * Maps agent.yaml `observability` to the Claude Code CLI's OpenTelemetry variables.
 * Fields with no CLI equivalent are reported by the config startup rules (one warning),
 * except `logs.level`, which the CLI has no knob for and is reported here.
 */
export function mapObservabilityEnv(observability: ObservabilityConfig | undefined): {
  env: Record<string, string>;
  ignored: string[];
} {
  const env: Record<string, string> = {};
  const ignored: string[] = [];
  if (!observability?.enabled) return { env, ignored };

  const exporters = observability.exporters;
  const kinds: string[] = [];
  if (exporters?.otlp?.enabled) kinds.push('otlp');
  if (exporters?.console?.enabled) kinds.push('console');
  const exporterList = kinds.length ? kinds.join(',') : 'none';

  env.CLAUDE_CODE_ENABLE_TELEMETRY = '1';
  if (observability.metrics?.enabled !== false) env.OTEL_METRICS_EXPORTER = exporterList;
  if (observability.logs?.enabled !== false) env.OTEL_LOGS_EXPORTER = exporterList;
  if (observability.traces?.enabled) env.OTEL_TRACES_EXPORTER = exporterList;
  if (observability.metrics?.export_interval_ms !== undefined) {
    env.OTEL_METRIC_EXPORT_INTERVAL = String(observability.metrics.export_interval_ms);
  }
  if (observability.traces?.capture_content) env.OTEL_LOG_USER_PROMPTS = '1';
  if (observability.service_name) {
    env.OTEL_SERVICE_NAME = observability.service_name;
    env.OTEL_RESOURCE_ATTRIBUTES = `service.name=${observability.service_name}`;
  }
  const otlp = exporters?.otlp;
  if (otlp?.enabled) {
    if (otlp.endpoint) env.OTEL_EXPORTER_OTLP_ENDPOINT = otlp.endpoint;
    if (otlp.protocol) env.OTEL_EXPORTER_OTLP_PROTOCOL = otlp.protocol;
    if (otlp.insecure) env.OTEL_EXPORTER_OTLP_INSECURE = 'true';
    const headers = Object.entries(otlp.headers ?? {});
    if (headers.length) {
      env.OTEL_EXPORTER_OTLP_HEADERS = headers
        .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`)
        .join(',');
    }
  }
  if (observability.logs?.level !== undefined) ignored.push('observability.logs.level');
  return { env, ignored };
}

import type { Meter } from '@opentelemetry/api';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';

/**
 * What metrics need. Unset fields come from the standard variables the OTLP exporter reads itself:
 * OTEL_EXPORTER_OTLP_ENDPOINT / OTEL_EXPORTER_OTLP_METRICS_ENDPOINT, OTEL_EXPORTER_OTLP_HEADERS.
 */
export interface MetricsOptions {
  serviceName: string;
  serviceVersion?: string;
  /** More resource attributes (e.g. `service.instance.id`), the same on spans and metrics. */
  resourceAttributes?: Record<string, string>;
  /** The OTLP/HTTP metrics URL, e.g. http://collector:4318/v1/metrics. */
  url?: string;
  headers?: Record<string, string>;
  /** How often metrics are exported, in ms (OTEL_METRIC_EXPORT_INTERVAL; default 60000). */
  exportIntervalMs?: number;
}

/** A meter exporting over OTLP/HTTP (JSON), and the shutdown that exports a last time. */
export interface Metrics {
  readonly meter: Meter;
  shutdown(): Promise<void>;
}

/** Starts a meter provider of its own (not registered globally), exporting periodically. */
export function startMetrics(options: MetricsOptions): Metrics {
  const exporter = new OTLPMetricExporter({
    ...(options.url ? { url: options.url } : {}),
    ...(options.headers ? { headers: options.headers } : {}),
  });
  const provider = new MeterProvider({
    resource: resourceFromAttributes({
      'service.name': options.serviceName,
      ...(options.serviceVersion ? { 'service.version': options.serviceVersion } : {}),
      ...options.resourceAttributes,
    }),
    readers: [
      new PeriodicExportingMetricReader({
        exporter,
        exportIntervalMillis: options.exportIntervalMs ?? 60_000,
      }),
    ],
  });
  let stopped: Promise<void> | undefined;
  return {
    meter: provider.getMeter(options.serviceName),
    shutdown() {
      stopped ??= provider.shutdown();
      return stopped;
    },
  };
}

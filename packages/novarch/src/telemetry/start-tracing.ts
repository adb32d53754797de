import type { Tracer } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BatchSpanProcessor,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
  TracerProvider,
} from '@opentelemetry/sdk-trace';

/**
 * What tracing needs. Unset fields come from the standard OpenTelemetry variables, which the OTLP
 * exporter reads itself: OTEL_EXPORTER_OTLP_ENDPOINT / OTEL_EXPORTER_OTLP_TRACES_ENDPOINT (default
 * http://localhost:4318/v1/traces), OTEL_EXPORTER_OTLP_HEADERS, OTEL_EXPORTER_OTLP_TIMEOUT.
 */
export interface TracingOptions {
  /** service.name of the spans. */
  serviceName: string;
  serviceVersion?: string;
  /** More resource attributes (e.g. `service.instance.id`), the same on spans and metrics. */
  resourceAttributes?: Record<string, string>;
  /** The OTLP/HTTP traces URL, e.g. http://collector:4318/v1/traces. */
  url?: string;
  /** Headers sent to the collector (e.g. an API key of a hosted backend). */
  headers?: Record<string, string>;
  /** Share of traces kept, 0..1 (default: all). */
  sampleRate?: number;
}

/** A tracer exporting over OTLP/HTTP (JSON), and the shutdown that flushes what is left. */
export interface Tracing {
  readonly tracer: Tracer;
  /** Exports the spans still buffered, then stops; safe to call twice. */
  shutdown(): Promise<void>;
}

/**
 * Starts an OpenTelemetry tracer provider of its own (not registered globally: what a host
 * process registers stays its own) that batches spans to an OTLP/HTTP collector. One module for
 * every part of the repository that exports spans (HoloDeck imports it from novarch).
 */
export function startTracing(options: TracingOptions): Tracing {
  const exporter = new OTLPTraceExporter({
    ...(options.url ? { url: options.url } : {}),
    ...(options.headers ? { headers: options.headers } : {}),
  });
  const provider = new TracerProvider({
    resource: resourceFromAttributes({
      'service.name': options.serviceName,
      ...(options.serviceVersion ? { 'service.version': options.serviceVersion } : {}),
      ...options.resourceAttributes,
    }),
    ...(options.sampleRate !== undefined
      ? { sampler: new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(options.sampleRate) }) }
      : {}),
    spanProcessors: [new BatchSpanProcessor({ exporter, scheduledDelayMillis: 1000 })],
  });
  let stopped: Promise<void> | undefined;
  return {
    tracer: provider.getTracer(options.serviceName),
    shutdown() {
      stopped ??= provider.shutdown();
      return stopped;
    },
  };
}

import type { LoadedAgent } from '../config/index.js';
import type { ServeMetricsPlan } from './serve-metrics.js';
import type { ServeTracingPlan } from './serve-tracing.js';
import type { ObserveTurn } from './turn-observer.js';

/** serve's spans and metrics: the turn observers that record them, and the last export. */
export interface ServeTelemetry {
  observers: ObserveTurn[];
  /** Exports what the last turns left buffered (spans in the batch, the metrics since the last export). */
  flush(): Promise<unknown>;
}

/** What startServeTelemetry starts from. */
export interface ServeTelemetrySettings {
  agent: LoadedAgent;
  /** The backend's name, on the spans. */
  backend: string;
  tracingPlan: ServeTracingPlan | undefined;
  metricsPlan: ServeMetricsPlan | undefined;
  instanceId: string;
  note: (message: string) => void;
  /** The gauge of live sessions (the registry, made once its observers are). */
  liveSessions: () => number;
}

/**
 * Starts OpenTelemetry, loaded only when spans or metrics are on. Both carry the same resource:
 * the service, and which instance of a fleet sent them.
 */
export async function startServeTelemetry(settings: ServeTelemetrySettings): Promise<ServeTelemetry> {
  const { agent, tracingPlan, metricsPlan, note } = settings;
  const resourceAttributes = { 'service.instance.id': settings.instanceId };
  const tracing = tracingPlan
    ? (await import('../telemetry/start-tracing.js')).startTracing({
        ...tracingPlan.options,
        resourceAttributes,
      })
    : undefined;
  const metrics = metricsPlan
    ? (await import('../telemetry/start-metrics.js')).startMetrics({
        ...metricsPlan.options,
        resourceAttributes,
      })
    : undefined;
  const observers: ObserveTurn[] = [];
  if (tracing && tracingPlan) {
    note(`tracing: a span per turn and per tool call, to ${tracingPlan.destination}`);
    if (tracingPlan.note) note(`note ${tracingPlan.note}`);
    observers.push(
      (await import('./turn-spans.js')).turnSpans(tracing.tracer, {
        agent: agent.config.name,
        model: agent.config.model.name,
        backend: settings.backend,
        captureContent: tracingPlan.captureContent,
        redact: tracingPlan.redact,
      }),
    );
  }
  if (metrics && metricsPlan) {
    note(
      `metrics: turns, durations, tokens and live sessions, every ${metricsPlan.options.exportIntervalMs} ms to ${metricsPlan.destination}`,
    );
    if (metricsPlan.note && metricsPlan.note !== tracingPlan?.note) note(`note ${metricsPlan.note}`);
    observers.push(
      (await import('./turn-metrics.js')).turnMetrics(metrics.meter, {
        agent: agent.config.name,
        model: agent.config.model.name,
        provider: agent.config.model.provider,
        liveSessions: settings.liveSessions,
      }),
    );
  }
  return {
    observers,
    flush: () =>
      Promise.all([
        tracing?.shutdown().catch((error: unknown) => note(`warning tracing: ${String(error)}`)),
        metrics?.shutdown().catch((error: unknown) => note(`warning metrics: ${String(error)}`)),
      ]),
  };
}

import type { LoadedAgent } from '../config/index.js';
import type { MetricsOptions } from '../telemetry/start-metrics.js';
import { checkTemporalityEnv, metricExportIntervalFromEnv } from './serve-otel-env.js';
import { otlpSignalPlan } from './serve-otlp-plan.js';

/** The OTLP default: metrics are exported once a minute (and once more at shutdown). */
const DEFAULT_EXPORT_INTERVAL_MS = 60_000;

/** How `holodeck serve` exports metrics, when it does. */
export interface ServeMetricsPlan {
  options: MetricsOptions;
  /** Where metrics go, for the start-up line. */
  destination: string;
  /** A setting serve's exporter does not use, said once at start-up. */
  note?: string;
}

/**
 * Whether and how `holodeck serve` exports metrics (off by default; `otlpSignalPlan` says when it
 * is on and where they go), with the same resource as its spans. The interval is agent.yaml's
 * `observability.metrics.export_interval_ms`, else OTEL_METRIC_EXPORT_INTERVAL, else a minute.
 */
export function serveMetricsPlan(
  agent: LoadedAgent,
  env: Readonly<Record<string, string | undefined>>,
): ServeMetricsPlan | undefined {
  const plan = otlpSignalPlan(agent, env, 'metrics');
  if (!plan) return undefined;
  checkTemporalityEnv(env);
  const fromEnv = metricExportIntervalFromEnv(env);
  const configured = plan.fromConfig ? agent.config.observability?.metrics?.export_interval_ms : undefined;
  return {
    options: {
      serviceName: plan.serviceName,
      serviceVersion: plan.serviceVersion,
      url: plan.url,
      ...(plan.headers ? { headers: plan.headers } : {}),
      exportIntervalMs: configured ?? fromEnv ?? DEFAULT_EXPORT_INTERVAL_MS,
    },
    destination: plan.url,
    ...(plan.note ? { note: plan.note } : {}),
  };
}

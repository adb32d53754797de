import { novarchVersion } from '../novarch-version.js';
import type { NovarchTelemetry } from './novarch-telemetry.js';
import { otelNovarchTelemetry } from './otel-novarch-telemetry.js';
import { startMetrics } from './start-metrics.js';
import { startTracing } from './start-tracing.js';
import type { TelemetrySettings } from './telemetry-settings.js';

/** Starts the exporters `settings` ask for and returns the engine's telemetry over them. */
export function startNovarchTelemetry(settings: TelemetrySettings): NovarchTelemetry {
  const tracing = settings.traces
    ? startTracing({ serviceName: settings.serviceName, serviceVersion: novarchVersion() })
    : undefined;
  const metrics = settings.metrics
    ? startMetrics({
        serviceName: settings.serviceName,
        serviceVersion: novarchVersion(),
        ...(settings.metricExportIntervalMs === undefined
          ? {}
          : { exportIntervalMs: settings.metricExportIntervalMs }),
      })
    : undefined;
  return otelNovarchTelemetry(tracing?.tracer, metrics?.meter, async () => {
    await Promise.all([tracing?.shutdown(), metrics?.shutdown()]);
  });
}

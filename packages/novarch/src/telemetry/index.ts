// `novarch/telemetry`: OpenTelemetry set-up shared by Novarch and HoloDeck. A subpath of its own,
// so that importing `novarch` loads no OpenTelemetry SDK.
export type { DecisionAttributes, NovarchTelemetry } from './novarch-telemetry.js';
export { type Metrics, type MetricsOptions, startMetrics } from './start-metrics.js';
export { startNovarchTelemetry } from './start-novarch-telemetry.js';
export { startTracing, type Tracing, type TracingOptions } from './start-tracing.js';
export { type TelemetrySettings, telemetrySettings } from './telemetry-settings.js';

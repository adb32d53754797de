// Metrics, like tracing, have one home: novarch's telemetry (a subpath: importing novarch loads no
// OpenTelemetry SDK). HoloDeck's metrics and Novarch's go through the same provider set-up.
export { type Metrics, type MetricsOptions, startMetrics } from 'novarch/telemetry';

// Tracing has one home, novarch's telemetry (a subpath, so importing novarch loads no OpenTelemetry
// SDK): HoloDeck's spans and Novarch's go through the same provider set-up.
export { startTracing, type Tracing, type TracingOptions } from 'novarch/telemetry';

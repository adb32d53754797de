/** OTLP/HTTP signals and the path each is posted to under a collector's base URL. */
export type OtlpSignal = 'traces' | 'metrics';

/**
 * A base OTLP/HTTP URL as agent.yaml and OTEL_EXPORTER_OTLP_ENDPOINT give it (`http://collector:4318`)
 * as the URL of one signal (`…/v1/traces`, `…/v1/metrics`); a URL that already names it is kept.
 */
export function otlpSignalUrl(endpoint: string, signal: OtlpSignal): string {
  return new RegExp(`/v1/${signal}/?$`).test(endpoint)
    ? endpoint
    : `${endpoint.replace(/\/+$/, '')}/v1/${signal}`;
}

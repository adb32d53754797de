/** A base OTLP/HTTP URL as agent.yaml and OTEL_EXPORTER_OTLP_ENDPOINT give it (`http://collector:4318`) as its traces URL. */
export function otlpTracesUrl(endpoint: string): string {
  return /\/v1\/traces\/?$/.test(endpoint) ? endpoint : `${endpoint.replace(/\/+$/, '')}/v1/traces`;
}

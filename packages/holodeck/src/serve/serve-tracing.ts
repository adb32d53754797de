import type { LoadedAgent } from '../config/index.js';
import type { TracingOptions } from '../telemetry/start-tracing.js';
import { otlpSignalPlan } from './serve-otlp-plan.js';

const REDACTED = '[REDACTED]';

/** How `holodeck serve` traces, when it does: the exporter's options and what spans carry. */
export interface ServeTracingPlan {
  options: TracingOptions;
  captureContent: boolean;
  redact: (text: string) => string;
  /** Where spans go, for the start-up line. */
  destination: string;
  /** A setting serve's exporter does not use, said once at start-up. */
  note?: string;
}

/**
 * Whether and how `holodeck serve` exports spans (off by default; `otlpSignalPlan` says when it is
 * on and where they go). agent.yaml's sample rate, capture_content and redaction apply to them.
 */
export function serveTracingPlan(
  agent: LoadedAgent,
  env: Readonly<Record<string, string | undefined>>,
): ServeTracingPlan | undefined {
  const plan = otlpSignalPlan(agent, env, 'traces');
  if (!plan) return undefined;
  const traces = plan.fromConfig ? agent.config.observability?.traces : undefined;
  const patterns = (traces?.redaction_patterns ?? []).map((source) => new RegExp(source, 'g'));
  return {
    options: {
      serviceName: plan.serviceName,
      serviceVersion: plan.serviceVersion,
      url: plan.url,
      ...(plan.headers ? { headers: plan.headers } : {}),
      ...(traces?.sample_rate !== undefined ? { sampleRate: traces.sample_rate } : {}),
    },
    captureContent: traces?.capture_content ?? false,
    redact: (text) => patterns.reduce((value, pattern) => value.replace(pattern, REDACTED), text),
    destination: plan.url,
    ...(plan.note ? { note: plan.note } : {}),
  };
}

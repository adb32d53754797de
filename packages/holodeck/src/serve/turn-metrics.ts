import { type Attributes, type Meter, ValueType } from '@opentelemetry/api';
import type { ObserveTurn } from './turn-observer.js';

/** What the metrics say of the agent. */
export interface TurnMetricOptions {
  agent: string;
  model: string;
  /** agent.yaml's model.provider (`anthropic`, `openai`, `azure_openai`, `ollama`). */
  provider: string;
  /** The live sessions now, read each time metrics are exported. */
  liveSessions: () => number;
}

// The GenAI conventions' bucket advice: seconds for durations, powers of 4 for tokens.
const SECONDS_BUCKETS = [
  0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92,
];
const TOKEN_BUCKETS = [
  1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864,
];

/** gen_ai.provider.name as the GenAI conventions spell the providers agent.yaml names. */
const PROVIDER_NAMES: Readonly<Record<string, string>> = { azure_openai: 'azure.ai.openai' };

/**
 * The metrics of served turns, named as the OpenTelemetry GenAI conventions name them where they
 * have a name (a turn is one `invoke_agent` operation):
 * - `gen_ai.client.operation.duration` (s): a turn's wall time, approvals and holds included;
 * - `gen_ai.client.operation.time_to_first_chunk` (s): from the turn's start to its first text;
 * - `gen_ai.client.token.usage` ({token}): a turn's input and output tokens (`gen_ai.token.type`),
 *   a histogram whose sum is the running total;
 * - `holodeck.serve.turns` ({turn}): turns by `holodeck.turn.outcome` (ok, error, limit, interrupted);
 * - `holodeck.serve.sessions.active` ({session}): the live sessions, observed at each export.
 * Every per-turn metric carries `holodeck.serve.protocol`; none carries a session id or text.
 */
export function turnMetrics(meter: Meter, options: TurnMetricOptions): ObserveTurn {
  const duration = meter.createHistogram('gen_ai.client.operation.duration', {
    description: 'Wall time of a served turn (one invoke_agent operation)',
    unit: 's',
    advice: { explicitBucketBoundaries: SECONDS_BUCKETS },
  });
  const firstChunk = meter.createHistogram('gen_ai.client.operation.time_to_first_chunk', {
    description: 'Time from the start of a served turn to its first text chunk',
    unit: 's',
    advice: { explicitBucketBoundaries: SECONDS_BUCKETS },
  });
  const tokens = meter.createHistogram('gen_ai.client.token.usage', {
    description: 'Input and output tokens of a served turn',
    unit: '{token}',
    valueType: ValueType.INT,
    advice: { explicitBucketBoundaries: TOKEN_BUCKETS },
  });
  const turns = meter.createCounter('holodeck.serve.turns', {
    description: 'Served turns, by outcome and protocol',
    unit: '{turn}',
    valueType: ValueType.INT,
  });
  meter
    .createObservableGauge('holodeck.serve.sessions.active', {
      description: 'Live sessions of this instance',
      unit: '{session}',
      valueType: ValueType.INT,
    })
    .addCallback((result) => result.observe(options.liveSessions()));
  const common: Attributes = {
    'gen_ai.operation.name': 'invoke_agent',
    'gen_ai.agent.name': options.agent,
    'gen_ai.request.model': options.model,
    'gen_ai.provider.name': PROVIDER_NAMES[options.provider] ?? options.provider,
  };

  return ({ protocol }) => {
    const started = performance.now();
    const seconds = () => (performance.now() - started) / 1000;
    const attributes: Attributes = { ...common, 'holodeck.serve.protocol': protocol };
    let firstText = true;
    return {
      event(event) {
        if (event.type === 'text-delta' && firstText && event.text !== '') {
          firstText = false;
          firstChunk.record(seconds(), attributes);
        } else if (event.type === 'finish') {
          const usage = event.result.token_usage;
          tokens.record(usage.prompt_tokens, { ...attributes, 'gen_ai.token.type': 'input' });
          tokens.record(usage.completion_tokens, { ...attributes, 'gen_ai.token.type': 'output' });
        }
      },
      end({ outcome }) {
        duration.record(seconds(), outcome === 'ok' ? attributes : { ...attributes, 'error.type': outcome });
        turns.add(1, { ...attributes, 'holodeck.turn.outcome': outcome });
      },
    };
  };
}

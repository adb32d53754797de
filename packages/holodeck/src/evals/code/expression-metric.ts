import { createContext, Script } from 'node:vm';
import { EXPRESSION_NAMES, type MetricConfig } from '../../config/index.js';
import type { Metric, MetricInput } from '../metric.js';
import { checkOutcome, errorOutcome, metricName, scoredOutcome } from '../metric-outcome.js';
import { shortToolName } from '../tools/match-tool-name.js';

type ExpressionConfig = Extract<MetricConfig, { type: 'expression' }>;

/** The values an expression reads, as plain JSON (see EXPRESSION_NAMES in the schema). */
function expressionScope(input: MetricInput): Record<string, unknown> {
  return {
    output: input.response,
    input: input.input,
    ground_truth: input.groundTruth ?? null,
    // `name` is the name agent.yaml gives the tool (an MCP tool's after mcp__<server>__).
    tool_calls: input.toolCalls.map((call) => ({
      name: shortToolName(call.name),
      arguments: call.arguments,
    })),
    structured_output: input.structuredOutput ?? null,
    cost_usd: input.costUsd,
    duration_ms: input.durationMs,
    turns: input.numTurns,
    vars: input.vars ?? {},
  };
}

/**
 * expression: a one-line check, evaluated in a fresh V8 context with no globals but the
 * language's own (no require, process, fetch or timers) and a time limit. The values are
 * handed over as JSON and parsed inside the context, so no object of HoloDeck's own realm (and
 * no path back to its Function constructor) is reachable. node:vm is a guard against
 * accidents, not a security boundary: the expression is the suite author's code, like a
 * `code` grader; the model's output only ever reaches it as data.
 */
export function createExpressionMetric(config: ExpressionConfig): Metric {
  const script = new Script(
    `'use strict'; (function ({ ${EXPRESSION_NAMES.join(', ')} }) { return (${config.value}\n); })(JSON.parse(__holodeckScope))`,
    { filename: `expression metric "${metricName(config)}"` },
  );
  return {
    name: metricName(config),
    type: config.type,
    async evaluate(input) {
      // The context's global object is one of this realm: with no prototype, it offers no
      // `constructor` back to this realm's Function (and so to `process`).
      const sandbox = Object.assign(Object.create(null) as object, {
        __holodeckScope: JSON.stringify(expressionScope(input)),
      });
      const context = createContext(sandbox, { codeGeneration: { strings: false, wasm: false } });
      let value: unknown;
      try {
        value = script.runInContext(context, { timeout: config.timeout_ms });
      } catch (error) {
        // Errors thrown inside the context are of its realm: not `instanceof` this realm's Error.
        const message =
          typeof error === 'object' &&
          error !== null &&
          'message' in error &&
          typeof error.message === 'string'
            ? error.message
            : String(error);
        return errorOutcome(config, `the expression failed: ${message}`);
      }
      if (typeof value === 'boolean') return checkOutcome(config, value, `\`${config.value}\` is ${value}`);
      if (typeof value === 'number' && value >= 0 && value <= 1)
        return scoredOutcome(config, value, config.threshold, `\`${config.value}\` = ${value}`);
      return errorOutcome(
        config,
        `the expression returned ${describe(value)}; it must return true/false or a number in [0, 1]`,
      );
    },
  };
}

function describe(value: unknown): string {
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return `the string ${JSON.stringify(value.slice(0, 40))}`;
  return value === null ? 'null' : typeof value;
}

import type { ToolCall, ToolResult } from '../../backends/contract/index.js';
import type { CalledBefore, MaxToolCalls, SequenceStep, ToolSequence } from '../../config/index.js';
import type { Metric, MetricOutcome } from '../metric.js';
import { classifyToolCall } from './classify-tool-call.js';
import { matchesToolName, shortToolName } from './match-tool-name.js';
import { argumentMatches, type ToolNameResolver } from './tool-expectations-metric.js';

/** The trajectory expectations of a case or turn (expected_tool_sequence, called_before, max_tool_calls). */
export interface TrajectoryExpectations {
  sequence?: ToolSequence;
  calledBefore?: CalledBefore;
  maxToolCalls?: MaxToolCalls;
}

/** True when the expectations hold anything to check. */
export function hasTrajectory(expectations: TrajectoryExpectations): boolean {
  return (
    expectations.sequence !== undefined ||
    expectations.calledBefore !== undefined ||
    expectations.maxToolCalls !== undefined
  );
}

function stepOf(step: SequenceStep): { name: string; args?: Record<string, unknown> } {
  return typeof step === 'string' ? { name: step } : step;
}

function describeStep(step: SequenceStep): string {
  const { name, args } = stepOf(step);
  return args ? `${name} ${JSON.stringify(args)}` : name;
}

/** The pairs of `called_before`: one `[a, b]`, or a list of them. */
function pairsOf(calledBefore: CalledBefore): [string, string][] {
  return typeof calledBefore[0] === 'string'
    ? [calledBefore as [string, string]]
    : (calledBefore as [string, string][]);
}

/**
 * Checks the order and number of tool calls; score = share of expectations met (the sequence is
 * one, each called_before pair one, the total one, each per-tool maximum one). The sequence and
 * called_before's first tool look at the calls that ran (as expected_tools does); the maximums
 * and called_before's second tool count every call the agent made, refused ones too.
 */
export function evaluateTrajectory(
  expectations: TrajectoryExpectations,
  calls: readonly ToolCall[],
  results: readonly ToolResult[] = [],
  resolve: ToolNameResolver = (name) => name,
): MetricOutcome {
  const ran = calls.filter((call) => classifyToolCall(call, results) === 'ran');
  const matches = (step: SequenceStep, call: ToolCall) => {
    const { name, args } = stepOf(step);
    return (
      matchesToolName(resolve(name), call.name) &&
      Object.entries(args ?? {}).every(([key, value]) => argumentMatches(value, call.arguments[key]))
    );
  };
  const findings: { met: boolean; text: string }[] = [];
  const { sequence } = expectations;
  if (sequence) {
    const steps = Array.isArray(sequence) ? sequence : sequence.tools;
    const mode = Array.isArray(sequence) ? 'in_order' : sequence.mode;
    const wanted = steps.map(describeStep).join(' → ');
    if (mode === 'exact') {
      const met =
        ran.length === steps.length && steps.every((step, index) => matches(step, ran[index] as ToolCall));
      findings.push({ met, text: `sequence (exact) ${wanted}` });
    } else if (mode === 'in_order') {
      let position = 0;
      let done = 0;
      for (const step of steps) {
        while (position < ran.length && !matches(step, ran[position] as ToolCall)) position++;
        if (position >= ran.length) break;
        position++;
        done++;
      }
      findings.push({
        met: done === steps.length,
        text: `sequence (in order) ${wanted}${done < steps.length ? `: stopped at step ${done + 1}, ${describeStep(steps[done] as SequenceStep)}` : ''}`,
      });
    } else {
      const free = [...ran];
      const missing: string[] = [];
      for (const step of steps) {
        const index = free.findIndex((call) => matches(step, call));
        if (index < 0) missing.push(describeStep(step));
        else free.splice(index, 1);
      }
      findings.push({
        met: missing.length === 0,
        text: `sequence (any order) ${wanted}${missing.length ? `: no call for ${missing.join(', ')}` : ''}`,
      });
    }
  }
  for (const [first, second] of expectations.calledBefore ? pairsOf(expectations.calledBefore) : []) {
    const secondAt = calls.findIndex((call) => matchesToolName(resolve(second), call.name));
    if (secondAt < 0) {
      findings.push({ met: true, text: `${first} before ${second} (${second} was not called)` });
      continue;
    }
    const firstAt = calls.findIndex(
      (call, index) => index < secondAt && ran.includes(call) && matchesToolName(resolve(first), call.name),
    );
    findings.push({
      met: firstAt >= 0,
      text: `${first} before ${second}${firstAt < 0 ? `: ${second} was called first` : ''}`,
    });
  }
  const limits = expectations.maxToolCalls;
  if (limits !== undefined) {
    const total = typeof limits === 'number' ? limits : limits.total;
    if (total !== undefined)
      findings.push({
        met: calls.length <= total,
        text: `at most ${total} tool call(s) in all: ${calls.length}`,
      });
    for (const [name, most] of Object.entries(typeof limits === 'number' ? {} : (limits.per_tool ?? {}))) {
      const count = calls.filter((call) => matchesToolName(resolve(name), call.name)).length;
      findings.push({ met: count <= most, text: `at most ${most} call(s) of ${name}: ${count}` });
    }
  }
  const unmet = findings.filter((finding) => !finding.met);
  // Named as agent.yaml names them (an MCP tool by its short name), the same on every backend.
  const order = ran.length ? ran.map((call) => shortToolName(call.name)).join(' → ') : 'no tool ran';
  return {
    name: 'tool-trajectory',
    type: 'tool-trajectory',
    score: findings.length ? (findings.length - unmet.length) / findings.length : 1,
    threshold: 1,
    passed: unmet.length === 0,
    reason: unmet.length
      ? `not met: ${unmet.map((finding) => finding.text).join('; ')} (ran: ${order})`
      : `met: ${findings.map((finding) => finding.text).join('; ')} (ran: ${order})`,
  };
}

/** The trajectory expectations of a case (or turn) as a Metric. */
export function createTrajectoryMetric(
  expectations: TrajectoryExpectations,
  resolve: ToolNameResolver = (name) => name,
): Metric {
  return {
    name: 'tool-trajectory',
    type: 'tool-trajectory',
    async evaluate(input) {
      return evaluateTrajectory(expectations, input.toolCalls, input.toolResults, resolve);
    },
  };
}

import { AsyncLocalStorage } from 'node:async_hooks';
import { type Meter, ROOT_CONTEXT, type Span, SpanStatusCode, type Tracer, trace } from '@opentelemetry/api';
import { errorMessage } from '../support.js';
import type { DecisionAttributes, NovarchTelemetry } from './novarch-telemetry.js';

/** `NovarchTelemetry` over an OpenTelemetry tracer and meter (either may be absent: traces or metrics off). */
export function otelNovarchTelemetry(
  tracer: Tracer | undefined,
  meter: Meter | undefined,
  shutdown: () => Promise<void>,
): NovarchTelemetry {
  const latency = meter?.createHistogram('novarch.decision.duration', {
    description: 'Time from a write proposed to its verdict stored (a hold: until it is placed)',
    unit: 'ms',
  });
  const kills = meter?.createCounter('novarch.kills', { description: 'Sessions killed, by source' });
  const judgeErrors = meter?.createCounter('novarch.judge.errors', {
    description: 'LLM judge calls that failed or left a rule undecided',
  });
  const pending = meter?.createObservableGauge('novarch.holds.pending', {
    description: 'Holds waiting for an operator',
  });

  const inSpan = spanRunner(tracer);

  return {
    async decision<T>(
      attributes: DecisionAttributes,
      work: () => Promise<T>,
      outcome: (result: T) => string,
    ) {
      const started = performance.now();
      const labels = { 'novarch.tenant': attributes.tenantId, 'novarch.team': attributes.teamId };
      let verdict = 'error';
      try {
        return await inSpan(
          'novarch.decision',
          { ...labels, 'novarch.agent': attributes.agentId, 'novarch.action_type': attributes.actionType },
          work,
          (result) => {
            verdict = outcome(result);
            return { 'novarch.verdict': verdict };
          },
        );
      } finally {
        latency?.record(performance.now() - started, { ...labels, 'novarch.verdict': verdict });
      }
    },
    async judgeCall<T>(rules: number, work: () => Promise<T>, failed: (result: T) => boolean) {
      try {
        return await inSpan('novarch.judge', { 'novarch.rules': rules }, work, (result) => {
          const undecided = failed(result);
          if (undecided) judgeErrors?.add(1, { 'novarch.reason': 'undecided' });
          return { 'novarch.undecided': undecided };
        });
      } catch (error) {
        judgeErrors?.add(1, { 'novarch.reason': 'error' });
        throw error;
      }
    },
    holdWait<T>(holdId: string, work: () => Promise<T>, status: (result: T) => string) {
      return inSpan('novarch.hold.wait', { 'novarch.hold': holdId }, work, (result) => ({
        'novarch.hold.status': status(result),
      }));
    },
    killed(source: string) {
      kills?.add(1, { 'novarch.kill.source': source });
    },
    observePendingHolds(count: () => Promise<number>) {
      pending?.addCallback(async (result) => {
        try {
          result.observe(await count());
        } catch {
          // A store that cannot be read reports nothing this time, rather than a wrong zero.
        }
      });
    },
    shutdown,
  };
}

/** Runs work in a span. */
type RunInSpan = <T>(
  name: string,
  attributes: Record<string, string | number>,
  work: () => Promise<T>,
  end: (result: T) => Record<string, string | number | boolean>,
) => Promise<T>;

/**
 * Runs each work in a span of `tracer` (none without one), the child of the span it was started
 * in; the span gets `end`'s attributes, or an error status when the work throws.
 */
function spanRunner(tracer: Tracer | undefined): RunInSpan {
  // The span a call runs inside, so a judge call is the child of its decision. Kept here rather
  // than in OpenTelemetry's context: the provider is not registered globally (a host's stays its
  // own), so no context manager is either.
  const current = new AsyncLocalStorage<Span>();
  return async (name, attributes, work, end) => {
    if (tracer === undefined) return work();
    const parent = current.getStore();
    const span = tracer.startSpan(
      name,
      { attributes },
      parent === undefined ? ROOT_CONTEXT : trace.setSpan(ROOT_CONTEXT, parent),
    );
    try {
      const result = await current.run(span, work);
      span.setAttributes(end(result));
      return result;
    } catch (error) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: errorMessage(error) });
      throw error;
    } finally {
      span.end();
    }
  };
}

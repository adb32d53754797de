import type { ProgressListener, RunProgress } from '../backends/contract/index.js';
import { emptyTokenUsage } from '../backends/contract/index.js';
import type { AttemptLimits } from '../config/index.js';
import type { CaseAttempt } from './report/run-report.js';

/** The limit an attempt was stopped at: which, its value, and what the attempt had reached. */
export interface LimitStop {
  limit: keyof AttemptLimits;
  max: number;
  reached: number;
  /** In words, as every report shows it: `stopped: tokens limit 2000 reached (2140)`. */
  reason: string;
}

/** The reason an attempt's signal is aborted with when it crosses a limit. */
export class LimitReachedError extends Error {
  constructor(readonly stop: LimitStop) {
    super(stop.reason.replace(/^stopped: /, ''));
    this.name = 'LimitReachedError';
  }
}

const NOTHING: RunProgress = {
  token_usage: emptyTokenUsage(),
  messages: 0,
  tool_calls: 0,
  cost_usd: 0,
  wants_next_message: false,
};

function dollars(value: number): string {
  return `$${Number(value.toPrecision(4))}`;
}

/**
 * Watches one attempt's progress against its `limits:` and stops it at the first one crossed:
 * more tokens, dollars or tool calls than allowed, or a response past `messages` (the last
 * allowed one calling tools means the agent would ask for another: it is stopped then, before
 * that request). A conversation's turns add up: each backend reports a turn's own running totals,
 * which replace the turn's last ones; `turnEnded()` banks them before the next turn starts.
 */
export class AttemptLimitMeter {
  private banked: RunProgress = NOTHING;
  private current: RunProgress = NOTHING;
  private stopped: LimitStop | undefined;

  constructor(
    private readonly limits: AttemptLimits,
    private readonly stopAttempt: (reason: LimitReachedError) => void,
  ) {}

  /** The listener to hand the backend (InvokeOptions / TurnOptions `onProgress`). */
  readonly onProgress: ProgressListener = (progress) => {
    this.current = progress;
    if (!this.stopped) this.check();
  };

  /** The turn in flight ended: its totals count towards the next turns'. */
  turnEnded(): void {
    this.banked = this.totals();
    this.current = { ...NOTHING, cost_usd: 0 };
  }

  /** The limit that stopped the attempt, if one did. */
  get stop(): LimitStop | undefined {
    return this.stopped;
  }

  /** The attempt so far: finished turns plus the turn in flight. */
  totals(): RunProgress {
    const a = this.banked;
    const b = this.current;
    const usage = emptyTokenUsage();
    for (const key of Object.keys(usage) as (keyof typeof usage)[])
      usage[key] = a.token_usage[key] + b.token_usage[key];
    return {
      token_usage: usage,
      messages: a.messages + b.messages,
      tool_calls: a.tool_calls + b.tool_calls,
      cost_usd: a.cost_usd === null || b.cost_usd === null ? null : a.cost_usd + b.cost_usd,
      wants_next_message: b.wants_next_message,
    };
  }

  private check(): void {
    const crossed = this.crossed(this.totals());
    if (!crossed) return;
    const { limit, max, reached, shown } = crossed;
    const maxShown = limit === 'cost' ? dollars(max) : String(max);
    this.stopped = { limit, max, reached, reason: `stopped: ${limit} limit ${maxShown} reached (${shown})` };
    this.stopAttempt(new LimitReachedError(this.stopped));
  }

  /** The first limit `totals` crossed, with the value reached and how it is shown. */
  private crossed(
    totals: RunProgress,
  ): { limit: keyof AttemptLimits; max: number; reached: number; shown: string } | undefined {
    const { tokens, cost, tool_calls: toolCalls, messages } = this.limits;
    const used = totals.token_usage.total_tokens;
    if (tokens !== undefined && used > tokens)
      return { limit: 'tokens', max: tokens, reached: used, shown: String(used) };
    if (cost !== undefined && totals.cost_usd !== null && totals.cost_usd > cost)
      return { limit: 'cost', max: cost, reached: totals.cost_usd, shown: dollars(totals.cost_usd) };
    if (toolCalls !== undefined && totals.tool_calls > toolCalls)
      return {
        limit: 'tool_calls',
        max: toolCalls,
        reached: totals.tool_calls,
        shown: String(totals.tool_calls),
      };
    if (messages !== undefined && totals.messages > messages)
      return { limit: 'messages', max: messages, reached: totals.messages, shown: String(totals.messages) };
    if (messages !== undefined && totals.messages === messages && totals.wants_next_message)
      return {
        limit: 'messages',
        max: messages,
        reached: messages,
        shown: `${messages}, the last calling tools, so the agent wanted another`,
      };
    return undefined;
  }
}

/**
 * A stopped attempt as the reports show it: failed (not errored: it ran, and went past what the
 * case allows), its one outcome the limit, with what it spent until it was stopped.
 */
export function limitStoppedAttempt(attempt: CaseAttempt, stop: LimitStop): CaseAttempt {
  const { error: _error, interrupted: _interrupted, ...ran } = attempt;
  return {
    ...ran,
    passed: false,
    score: 0,
    metrics: [{ name: 'limits', type: 'limits', score: 0, passed: false, reason: stop.reason }],
    stopped: stop,
  };
}

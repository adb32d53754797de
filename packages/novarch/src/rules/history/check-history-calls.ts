import type { HistoryKind } from '../../model/action-history.js';
import { HISTORY_FUNCTIONS } from './cel-history.js';
import { checkFilterKey, filterKeysHint, parseHistoryField } from './parse-history-filter.js';
import { parseHistoryWindow } from './parse-history-window.js';

/** How the history functions are called, for hints. */
export const HISTORY_USAGE_HINT =
  "history.count(action_type, window[, filter]), history.exists(action_type, window[, filter]) and history.sum(action_type, field, window[, filter]), on history (the tenant), history.agent or history.session, e.g. history.count('issue_refund', '24h', {'context.customer_id': action.context.customer_id}) < 3; past reads by tool name on history.evidence (and history.session.evidence, history.agent.evidence), e.g. history.evidence.exists('lookup_customer', '1h', {'input.customer_id': action.context.customer_id})";

/** One history call found in a condition. */
export interface HistoryCallSite {
  aggregate: (typeof HISTORY_FUNCTIONS)[number];
  /** What it reads: past actions, or past evidence (then `actionType` is a tool name). */
  kind: HistoryKind;
  /** The literal action type (tool name) it reads. */
  actionType: string;
  /** 0-based offset of the action type in the expression. */
  offset: number;
}

/** A problem with a history call, for the rules file's messages. */
export interface HistoryCallProblem {
  message: string;
  offset: number;
  hint: string;
}

interface AstNode {
  op: string;
  args: unknown;
  start?: number;
}

function isNode(value: unknown): value is AstNode {
  return typeof value === 'object' && value !== null && 'op' in value && 'args' in value;
}

/**
 * What `node` reads when it is a history receiver: `history`, `history.session` or
 * `history.agent` (actions), or any of them followed by `.evidence`; undefined otherwise.
 */
function receiverKind(node: unknown): HistoryKind | undefined {
  if (!isNode(node)) return undefined;
  if (node.op === 'id') return node.args === 'history' ? 'action' : undefined;
  if (node.op !== '.' || !Array.isArray(node.args)) return undefined;
  const [object, field] = node.args;
  const inner = receiverKind(object);
  if (inner !== 'action') return undefined;
  if (field === 'evidence') return 'evidence';
  const isRoot = isNode(object) && object.op === 'id';
  return isRoot && (field === 'session' || field === 'agent') ? 'action' : undefined;
}

/** What a call of a history function reads, or undefined when `node` is not one. */
function historyCallKind(node: unknown): HistoryKind | undefined {
  if (!isNode(node) || node.op !== 'rcall' || !Array.isArray(node.args)) return undefined;
  const [name, receiver] = node.args;
  return HISTORY_FUNCTIONS.some((fn) => fn === name) ? receiverKind(receiver) : undefined;
}

/** Whether `node` is a call of a history function on a history receiver. */
export function isHistoryCall(node: unknown): boolean {
  return historyCallKind(node) !== undefined;
}

/**
 * The history calls of a checked condition, or the first problem with one: the action type,
 * window and summed field must be literals (so a push can check them), the window one the
 * store accepts, the field and the filter's keys ones it can read.
 */
export function findHistoryCalls(
  ast: unknown,
): { calls: HistoryCallSite[] } | { problem: HistoryCallProblem } {
  const calls: HistoryCallSite[] = [];
  const pending: unknown[] = [ast];
  for (let node = pending.pop(); node !== undefined || pending.length > 0; node = pending.pop()) {
    if (Array.isArray(node)) {
      pending.push(...node);
      continue;
    }
    if (!isNode(node)) continue;
    const kind = historyCallKind(node);
    if (kind !== undefined && Array.isArray(node.args)) {
      const [name, , callArgs] = node.args;
      const aggregate = HISTORY_FUNCTIONS.find((fn) => fn === name);
      const args: unknown[] = Array.isArray(callArgs) ? callArgs : [];
      if (aggregate === undefined) continue;
      const call = kind === 'evidence' ? `history.evidence.${aggregate}` : `history.${aggregate}`;
      const typeArg = literal(args[0], `${call}: the ${kind === 'evidence' ? 'tool name' : 'action type'}`);
      if ('problem' in typeArg) return typeArg;
      const windowIndex = aggregate === 'sum' ? 2 : 1;
      const windowArg = literal(args[windowIndex], `${call}: the window`);
      if ('problem' in windowArg) return windowArg;
      const window = parseHistoryWindow(windowArg.value);
      if (!window.ok) return problem(`${call}: ${window.message}`, windowArg.offset);
      if (aggregate === 'sum') {
        const fieldArg = literal(args[1], `${call}: the field`);
        if ('problem' in fieldArg) return fieldArg;
        const field = parseHistoryField(fieldArg.value, kind);
        if (typeof field === 'string') return problem(`${call}: ${field}`, fieldArg.offset);
      }
      const filterProblem = checkFilterLiteral(args[windowIndex + 1], call, kind);
      if (filterProblem !== undefined) return { problem: filterProblem };
      calls.push({ aggregate, kind, actionType: typeArg.value, offset: typeArg.offset });
    }
    pending.push(node.args);
  }
  return { calls: calls.sort((a, b) => a.offset - b.offset) };
}

function literal(
  node: unknown,
  what: string,
): { value: string; offset: number } | { problem: HistoryCallProblem } {
  const offset = isNode(node) ? (node.start ?? 0) : 0;
  if (isNode(node) && node.op === 'value' && typeof node.args === 'string')
    return { value: node.args, offset };
  return problem(`${what} must be written as a string literal (a push checks it), e.g. '24h'`, offset);
}

function problem(message: string, offset: number): { problem: HistoryCallProblem } {
  return { problem: { message, offset, hint: HISTORY_USAGE_HINT } };
}

/** The keys of a filter written as a map literal must be literal filter keys. */
function checkFilterLiteral(node: unknown, call: string, kind: HistoryKind): HistoryCallProblem | undefined {
  if (!isNode(node) || node.op !== 'map' || !Array.isArray(node.args)) return undefined;
  const hint = filterKeysHint(kind);
  for (const entry of node.args) {
    const key: unknown = Array.isArray(entry) ? entry[0] : undefined;
    const offset = isNode(key) ? (key.start ?? 0) : (node.start ?? 0);
    if (!isNode(key) || key.op !== 'value' || typeof key.args !== 'string')
      return { message: `${call}: a filter key must be a string literal`, offset, hint };
    const keyProblem = checkFilterKey(key.args, kind);
    if (keyProblem !== undefined) return { message: `${call}: ${keyProblem}`, offset, hint };
  }
  return undefined;
}

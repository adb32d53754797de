// The governed shop the governance e2e tests share: an orders module (lookup_order, refund_order
// that logs each refund to refunds.log), the cs-ops rules (TEAM-1: a refund needs a prior lookup
// of the same order, kill; TEAM-2: refunds over 500 are held) and the governance: block that maps
// them. Each test picks the rules and tools it needs; function tools are
// `mcp__holodeck_tools__<name>` to the rules on both backends.

/** What the governed shop is built from; every field has the common default. */
export interface GovernedShopOptions {
  /** The rules of the team, by id; default both. */
  rules?: readonly ('TEAM-1' | 'TEAM-2')[];
  /** The tools agent.yaml declares; default both. */
  tools?: readonly ('lookup_order' | 'refund_order')[];
  /** The JavaScript object lookupOrder returns; default `{ order_id, status: 'delivered' }`. */
  lookupResult?: string;
  /** What refundOrder returns, as a JavaScript expression; default `'refunded'`. */
  refundResult?: string;
  /** The deployment's hold window in novarch.yaml; default 1 s. */
  holdWindowSeconds?: number;
  /** The description of each tool; default its name. */
  describeTool?: (name: string) => string;
}

const RULE_TEXT = {
  'TEAM-1': `  - id: TEAM-1
    version: 1
    description: A refund needs a prior lookup of the same order.
    applies_to: [refund_order]
    on_violation: kill
    condition: evidence.exists(e, e.tool == "mcp__holodeck_tools__lookup_order" && e.input.order_id == action.context.recordId)
`,
  'TEAM-2': `  - id: TEAM-2
    version: 1
    description: Refunds over 500 are held for a human.
    applies_to: [refund_order]
    on_violation: hold
    condition: action.context.amount <= 500
`,
} as const;

const PROPERTIES = {
  lookup_order: { order_id: { type: 'string' } },
  refund_order: { order_id: { type: 'string' }, amount: { type: 'number' } },
} as const;

const FUNCTIONS = { lookup_order: 'lookupOrder', refund_order: 'refundOrder' } as const;

/** orders.mjs: lookupOrder, and refundOrder appending `<order_id> <amount>` to refunds.log. */
export function ordersModule(options: GovernedShopOptions = {}): string {
  return `
import { appendFileSync } from 'node:fs';
export const lookupOrder = ({ order_id }) => (${options.lookupResult ?? "{ order_id, status: 'delivered' }"});
export const refundOrder = ({ order_id, amount }) => {
  appendFileSync(new URL('./refunds.log', import.meta.url), order_id + ' ' + amount + '\\n');
  return ${options.refundResult ?? "'refunded'"};
};
`;
}

/** rules.yaml of team cs-ops with the chosen rules. */
export function rulesFile(rules: GovernedShopOptions['rules'] = ['TEAM-1', 'TEAM-2']): string {
  return `team: cs-ops\naction_types: [refund_order]\nrules:\n${rules.map((id) => RULE_TEXT[id]).join('')}`;
}

/** One function tool of the shop, as agent.yaml declares it. */
export function shopTool(name: 'lookup_order' | 'refund_order', options: GovernedShopOptions = {}) {
  return {
    type: 'function',
    name,
    description: options.describeTool?.(name) ?? name,
    file: 'orders.mjs',
    function: FUNCTIONS[name],
    parameters: { type: 'object', properties: PROPERTIES[name], required: Object.keys(PROPERTIES[name]) },
  };
}

/** agent.yaml's `tools:` and `governance:` for the shop. */
export function governedShopConfig(options: GovernedShopOptions = {}) {
  const names = options.tools ?? ['lookup_order', 'refund_order'];
  return {
    tools: names.map((name) => shopTool(name, options)),
    governance: {
      tenant_id: 'acme',
      team_id: 'cs-ops',
      agent_id: 'support-bot',
      rules_file: 'rules.yaml',
      config_file: 'novarch.yaml',
      tool_kinds: Object.fromEntries(
        names.map((name) => [name, name === 'refund_order' ? 'write' : 'read'] as const),
      ),
      write_specs: names.includes('refund_order')
        ? { refund_order: { action_type: 'refund_order', record_id: 'order_id', amount: 'amount' } }
        : {},
    },
  };
}

/** The files next to agent.yaml: orders.mjs, rules.yaml and novarch.yaml (store novarch.db). */
export function governedShopFiles(options: GovernedShopOptions = {}): Record<string, string> {
  return {
    'orders.mjs': ordersModule(options),
    'rules.yaml': rulesFile(options.rules),
    'novarch.yaml': `hold_window_seconds: ${options.holdWindowSeconds ?? 1}\nstore:\n  path: novarch.db\n`,
  };
}

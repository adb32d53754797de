import type { InitTemplate, TemplateOptions } from '../init-template.js';
import { modelSection } from './model-section.js';

const INSTRUCTIONS = `You are the support agent of an online shop.

- Look an order up with lookup_order before you say anything about it, and quote its status.
- Refunds: look the order up first, then call issue_refund with the order id and the amount.
  Refunds over $100 wait for a human's approval: tell the customer so when that happens.
- Never promise anything the tools did not confirm. Be brief and polite.
`;

const ORDERS_TOOL = `// Function tools of the support agent. HoloDeck calls these exports with the arguments the
// model sent, already checked against each tool's JSON Schema in agent.yaml. Replace the sample
// data with calls to your order system; throw an Error to give the model an error result.

const ORDERS = {
  'A-1001': { status: 'shipped', carrier: 'DHL', total: 54.9, items: ['USB-C charger'] },
  'A-1002': { status: 'processing', ships_in: '2 business days', total: 240, items: ['Headphones'] },
};

/** A read: Novarch records it as evidence (governance.tool_kinds says so). */
export function lookupOrder({ order_id }) {
  const order = ORDERS[order_id];
  if (!order) return { order_id, found: false, note: 'No order with this id: ask the customer to check it.' };
  return { order_id, found: true, ...order };
}

/** A write: Novarch judges every call against rules.yaml before it runs. */
export function issueRefund({ order_id, amount }) {
  return { order_id, amount, refund: 'issued', reference: \`R-\${order_id}\` };
}
`;

const RULES = (
  team: string,
) => `# Team rules: Novarch judges every write tool call (governance.write_specs) against them before
# it runs. A rule's condition is CEL; \`evidence\` is what the agent read in this session.
# holodeck validate agent.yaml checks them (CEL syntax, action types, the team).
team: ${team}
action_types: [issue_refund]
rules:
  - id: SUPPORT-1
    version: 1
    description: A refund needs a lookup of the same order first.
    applies_to: [issue_refund]
    on_violation: kill # ends the session; the refund never runs
    condition: evidence.exists(e, e.tool == "mcp__holodeck_tools__lookup_order" && e.input.order_id == action.context.recordId)
  - id: SUPPORT-2
    version: 1
    description: Refunds over $100 wait for a human (novarch holds list / approve / deny).
    applies_to: [issue_refund]
    on_violation: hold
    condition: action.context.amount <= 100
`;

const NOVARCH_CONFIG = `# Novarch deployment settings for this agent (see the README, "Governing tool calls").
hold_window_seconds: 300 # how long a held write waits for an operator
store:
  path: .holodeck/novarch.db # decisions, evidence and holds, next to this file
`;

function agentYaml(options: TemplateOptions): string {
  const section = modelSection(options.provider, 8);
  return `# A customer-support HoloDeck agent with governed tools, written by holodeck init. Next:
#   holodeck validate agent.yaml
#   holodeck chat agent.yaml
#   holodeck test agent.yaml
name: ${options.name} # letters, digits, hyphens; starts with a letter
description: Answers questions about orders and issues refunds, under the team's rules.

${section.model}

instructions:
  file: instructions.md

tools:
  - type: function
    name: lookup_order
    description: Look up an order by its id and return its status, items and total.
    file: tools/orders.mjs
    function: lookupOrder
    parameters:
      type: object
      properties:
        order_id: { type: string, pattern: "^A-[0-9]{4}$", description: Order id such as A-1001 }
      required: [order_id]
      additionalProperties: false
  - type: function
    name: issue_refund
    description: Refund an amount of an order to the customer.
    file: tools/orders.mjs
    function: issueRefund
    parameters:
      type: object
      properties:
        order_id: { type: string, pattern: "^A-[0-9]{4}$" }
        amount: { type: number, exclusiveMinimum: 0, description: US dollars }
      required: [order_id, amount]
      additionalProperties: false

# Novarch governance: reads become evidence, writes are judged against rules.yaml before they
# run (pass, kill, or hold for a human). Tools missing from tool_kinds are refused.
governance:
  tenant_id: my-company
  team_id: support
  agent_id: ${options.name}
  rules_file: rules.yaml
  config_file: novarch.yaml
  tool_kinds:
    lookup_order: read
    issue_refund: write
  write_specs:
    issue_refund:
      action_type: issue_refund
      record_id: order_id
      amount: amount
      summary: Refund {amount} USD on order {order_id}

# ---------------------------------------------------------------------------------------------
# Tests: holodeck test agent.yaml   (then: holodeck test view)
# ---------------------------------------------------------------------------------------------
evaluations:
  metrics: # applied to every test case that has no metrics of its own
    - type: latency
      threshold: 60000
    - type: turns
      threshold: 6

test_cases:
  - name: shipped-order
    tags: [orders]
    input: Where is my order A-1001?
    ground_truth: Your order A-1001 has shipped with DHL.
    expected_tools:
      - name: lookup_order
        args: { order_id: A-1001 }
        count: 1
    forbidden_tools: [issue_refund]
    metrics:
      - type: icontains
        value: shipped
      - type: rouge # NLP similarity to ground_truth
        variant: rougeL
        threshold: 0.3

  - name: unknown-order
    tags: [orders]
    input: Where is my order A-9999?
    expected_tools: [lookup_order]
    metrics:
      - type: icontains-any
        value: [could not find, no order, check]
      - type: not-icontains
        value: shipped

  - name: small-refund # Novarch must let this write run
    tags: [refunds]
    input: Please refund the $20 charger fee on order A-1001.
    expected_tools: [lookup_order, issue_refund]
    expected_verdicts:
      - { tool: issue_refund, verdict: pass }
    expect_killed: false
    metrics:
      - type: icontains
        value: refund
`;
}

export const customerSupportTemplate: InitTemplate = {
  name: 'customer-support',
  summary: 'order lookups and refunds: two function tools under Novarch governance rules',
  defaultProvider: 'anthropic',
  render: (options) => [
    { path: 'agent.yaml', content: agentYaml(options) },
    { path: 'instructions.md', content: INSTRUCTIONS },
    { path: 'tools/orders.mjs', content: ORDERS_TOOL },
    { path: 'rules.yaml', content: RULES('support') },
    { path: 'novarch.yaml', content: NOVARCH_CONFIG },
  ],
};

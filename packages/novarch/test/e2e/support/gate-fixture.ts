import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type AgentDefinition, createSdkMcpServer, query, tool } from '@anthropic-ai/claude-agent-sdk';
import { type RecordedRequest, toolResults, toolUse } from '@holodeck/testkit';
import { z } from 'zod';
import type { GovernanceEngine } from '../../../src/engine/governance-engine.js';
import {
  augur,
  type LlmJudge,
  loadRulesFile,
  NovarchEngine,
  NovarchHookGate,
  type NovarchStore,
  openSqliteStore,
} from '../../../src/index.js';

/**
 * The team rules of the customer-service example: a refund needs a lookup; over 500 is held. Also
 * the rules of bench/gate-overhead.mjs.
 */
export const RULES_FILE = fileURLToPath(
  new URL('../../fixtures/rules/cs-ops-gate.rules.yaml', import.meta.url),
);
export const RULES_YAML = readFileSync(RULES_FILE, 'utf8');

export interface GateWorld {
  directory: string;
  storeFile: string;
  store: NovarchStore;
  engine: NovarchEngine;
  /** Refunds the write tool really executed. */
  refunds: { customer_id: string; amount: number }[];
  /** Customers the lookup read really looked up. */
  lookups: string[];
  /** Runs one governed query with the given fake model URL; returns the gate after the loop. */
  run(baseUrl: string, options?: GateRunOptions): Promise<NovarchHookGate>;
  close(): Promise<void>;
}

/** The model calls the `cs` server's read for a customer. */
export const lookup = (customer: string, id: string) =>
  toolUse('mcp__cs__lookup_customer', { customer_id: customer }, { id });

/** The model calls the `cs` server's gated write: a refund, with its reasoning. */
export const refund = (customer: string, amount: number, id: string) =>
  toolUse('mcp__cs__issue_refund', { customer_id: customer, amount, reasoning: 'customer asked' }, { id });

/** What the model saw as the result of each tool call in its `index`-th request, by call id. */
export function toolResultsSeen(server: { requests: readonly RecordedRequest[] }, index: number) {
  const request = server.requests[index];
  if (!request) throw new Error(`the fake model received no request #${index + 1}`);
  return Object.fromEntries(toolResults(request).map((result) => [result.toolUseId, result]));
}

export interface GateRunOptions {
  timeoutS?: number;
  maxHoldS?: number;
  /**
   * The user's own permission rules deny lookups of this customer (canUseTool): the CLI then
   * fires no PostToolUse for that call, only the tool result in the message stream shows it.
   */
  denyLookupOf?: string;
  /** Iterate the query without `gate.track` (the hooks alone). */
  untracked?: boolean;
  /** Aborts the query (the SDK's `abortController`). */
  abortController?: AbortController;
  /** Subagents the model may start with the `Agent` tool (then mapped as a read). */
  agents?: Record<string, AgentDefinition>;
  /** Called with the gate once it is open, before the query starts. */
  onGate?: (gate: NovarchHookGate) => void;
  /** More variables for `gate.agentEnv` (what the agent's process would inherit). */
  env?: Record<string, string>;
  /** Built-in tools to offer besides `Agent` (mapped as reads), e.g. `['Bash']`. */
  builtinReads?: string[];
  /** Feed the gate the stream's partial messages (`includePartialMessages`), as HoloDeck does. */
  partialMessages?: boolean;
  /** The `cs` server's tools declare `readOnlyHint` (the CLI then runs them concurrently). */
  readOnlyHints?: boolean;
}

export interface GateWorldOptions {
  /** Team rules to use instead of the gate fixture's (YAML). */
  rulesYaml?: string;
  /** An LLM judge for rules without a condition. */
  llmJudge?: LlmJudge;
  /** An existing directory (and the store file `novarch.db` in it) to use; default a new temp one. */
  directory?: string;
  /** Also append each executed refund to this file as a JSON line (seen from other processes). */
  refundsFile?: string;
  /** Govern the runs with this engine (e.g. a `remoteEngine`) instead of the local one on `store`. */
  engine?: GovernanceEngine;
  /** How long the fraud check takes to answer (a slow read still in flight when a turn ends). */
  fraudCheckMs?: number;
}

/** A store, rules and an in-process MCP server `cs` with a read and a gated write. */
export async function createGateWorld(
  holdWindowSeconds = 5,
  options: GateWorldOptions = {},
): Promise<GateWorld> {
  const directory = options.directory ?? mkdtempSync(path.join(tmpdir(), 'novarch-gate-'));
  const rulesFile = path.join(directory, 'rules.yaml');
  writeFileSync(rulesFile, options.rulesYaml ?? RULES_YAML);
  const storeFile = path.join(directory, 'novarch.db');
  const store = await openSqliteStore(storeFile);
  const engine = new NovarchEngine({
    store,
    rules: [await loadRulesFile(rulesFile)],
    holdWindowSeconds,
    pollIntervalMs: 50,
    ...(options.llmJudge === undefined ? {} : { llmJudge: options.llmJudge }),
  });
  const refunds: GateWorld['refunds'] = [];
  const lookups: string[] = [];
  const server = (readOnlyHints = false) => {
    // With readOnlyHint the CLI runs the cs tools of one message concurrently, not one by one.
    const hints = readOnlyHints ? { annotations: { readOnlyHint: true } } : undefined;
    return createSdkMcpServer({
      name: 'cs',
      tools: [
        tool(
          'lookup_customer',
          'Look up a customer',
          { customer_id: z.string() },
          async ({ customer_id }) => {
            lookups.push(customer_id);
            return { content: [{ type: 'text', text: `customer ${customer_id}: in good standing` }] };
          },
          hints,
        ),
        tool(
          'check_fraud',
          'Check a customer for fraud flags',
          { customer_id: z.string() },
          async ({ customer_id }) => {
            await new Promise((resolve) => setTimeout(resolve, options.fraudCheckMs ?? 0));
            return { content: [{ type: 'text', text: `customer ${customer_id}: FLAGGED for fraud` }] };
          },
          hints,
        ),
        tool(
          'issue_refund',
          'Issue a refund',
          { customer_id: z.string(), amount: z.number(), reasoning: z.string().optional() },
          async ({ customer_id, amount }) => {
            refunds.push({ customer_id, amount });
            if (options.refundsFile !== undefined)
              appendFileSync(options.refundsFile, `${JSON.stringify({ customer_id, amount })}\n`);
            return { content: [{ type: 'text', text: `refunded ${amount} to ${customer_id}` }] };
          },
          hints,
        ),
        tool('delete_account', 'Delete an account', { customer_id: z.string() }, async () => ({
          content: [{ type: 'text', text: 'deleted' }],
        })),
      ],
    });
  };
  const home = path.join(directory, 'home');
  const governing = options.engine ?? engine;
  return {
    directory,
    storeFile,
    store,
    engine,
    refunds,
    lookups,
    async run(baseUrl, options = {}) {
      return augur.session(
        {
          tenantId: 'acme',
          teamId: 'cs-ops',
          agentId: 'cs-bot',
          engine: governing,
          ...(options.maxHoldS !== undefined ? { maxHoldS: options.maxHoldS } : {}),
        },
        async () => {
          const gate = await new NovarchHookGate({
            toolKinds: {
              mcp__cs__lookup_customer: 'read',
              mcp__cs__check_fraud: 'read',
              mcp__cs__issue_refund: 'write',
              ...(options.agents === undefined ? {} : { Agent: 'read' as const }),
              ...Object.fromEntries((options.builtinReads ?? []).map((name) => [name, 'read' as const])),
            },
            writeSpecs: {
              mcp__cs__issue_refund: {
                actionType: 'issue_refund',
                contextBuilder: (args) => {
                  if (typeof args.customer_id !== 'string' || typeof args.amount !== 'number')
                    throw new Error('customer_id and amount are required');
                  return {
                    recordId: args.customer_id,
                    summary: `refund ${args.customer_id}`,
                    amount: args.amount,
                  };
                },
              },
            },
          }).open();
          options.onGate?.(gate);
          const run = query({
            prompt: 'Help the customer.',
            options: {
              // The gate marks the agent's environment: `novarch` refuses decisions from inside it.
              env: gate.agentEnv({
                PATH: process.env.PATH ?? '',
                HOME: home,
                ANTHROPIC_BASE_URL: baseUrl,
                ANTHROPIC_API_KEY: 'sk-test',
                CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
                CLAUDE_CODE_MAX_RETRIES: '0',
                IS_SANDBOX: '1',
                ...options.env,
              }),
              tools: [...(options.agents === undefined ? [] : ['Agent']), ...(options.builtinReads ?? [])],
              ...(options.partialMessages ? { includePartialMessages: true } : {}),
              ...(options.agents === undefined ? {} : { agents: options.agents }),
              ...(options.abortController === undefined ? {} : { abortController: options.abortController }),
              settingSources: [],
              thinking: { type: 'disabled' },
              mcpServers: { cs: server(options.readOnlyHints) },
              ...(options.denyLookupOf === undefined
                ? { permissionMode: 'bypassPermissions', allowDangerouslySkipPermissions: true }
                : {
                    permissionMode: 'default',
                    canUseTool: async (toolName, input) =>
                      toolName === 'mcp__cs__lookup_customer' && input.customer_id === options.denyLookupOf
                        ? { behavior: 'deny', message: `lookups of ${options.denyLookupOf} are not allowed` }
                        : { behavior: 'allow', updatedInput: input },
                  }),
              hooks: gate.hooksConfig(options.timeoutS !== undefined ? { timeoutS: options.timeoutS } : {}),
            },
          });
          try {
            for await (const _message of options.untracked ? run : gate.track(run)) {
              // the gate acts through hooks, and completes its evidence from the messages
            }
          } catch (error) {
            if (!options.abortController?.signal.aborted) throw error;
          }
          await gate.close();
          return gate;
        },
      );
    },
    close: () => store.close(),
  };
}

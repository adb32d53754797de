import { apiError, type FakeAnthropicServer, reply, startFakeAnthropic, toolUse } from '@holodeck/testkit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { judgeAction } from '../../../src/rules/judge-action.js';
import { AnthropicLlmJudge } from '../../../src/rules/llm/anthropic-llm-judge.js';
import { loadRulesFile } from '../../../src/rules/load-rules-file.js';
import type { RuleSet } from '../../../src/rules/rule-set.js';
import { CS_OPS_RULES, lookup, refund, rule, ruleSet, session } from './judge-fixtures.js';

const API_KEY = 'sk-ant-test-secret-key';
let server: FakeAnthropicServer;
let csOps: RuleSet;

beforeAll(async () => {
  server = await startFakeAnthropic();
  csOps = await loadRulesFile(CS_OPS_RULES);
});
afterEach(() => {
  server.assertComplete();
  server.reset();
});
afterAll(async () => {
  await server.close();
});

const llmJudge = (options: { maxRetries?: number } = {}) =>
  new AnthropicLlmJudge({
    env: { ANTHROPIC_API_KEY: API_KEY, ANTHROPIC_BASE_URL: server.url },
    maxRetries: 0,
    ...options,
  });

/** Judges a refund of 120 after a lookup of the same customer: only TEAM-3 (no condition) is open. */
const judgeRefund = (judge: AnthropicLlmJudge, rules: RuleSet = csOps) =>
  judgeAction({
    action: refund('cust-7', 120),
    evidence: [lookup('ev-1', 'cust-7')],
    session,
    rules: [rules],
    llmJudge: judge,
  });

const verdicts = (...entries: [string, boolean, string][]) => ({
  verdicts: entries.map(([rule_id, violated, rationale]) => ({ rule_id, violated, rationale })),
});

describe('AnthropicLlmJudge against the fake Messages API', () => {
  it('passes when the model finds the rule kept, and asks with temperature 0 and a forced tool call', async () => {
    server.script(toolUse('submit_rule_verdicts', verdicts(['TEAM-3', false, 'no compensation promised'])));
    const verdict = await judgeRefund(llmJudge());
    expect(verdict).toEqual({
      kind: 'pass',
      citations: {
        ruleIds: ['TEAM-1', 'TEAM-2', 'TEAM-3'],
        evidenceIds: ['ev-1'],
        rationale: 'all 3 rules for issue_refund satisfied (TEAM-1, TEAM-2, TEAM-3)',
      },
    });
    const request = server.requests[0];
    expect(request?.path).toBe('/v1/messages');
    expect(request?.headers['x-api-key']).toBe(API_KEY);
    expect(request?.headers['anthropic-version']).toBe('2023-06-01');
    expect(request?.body).toMatchObject({
      model: 'claude-sonnet-4-6',
      temperature: 0,
      tool_choice: { type: 'tool', name: 'submit_rule_verdicts' },
      tools: [
        {
          name: 'submit_rule_verdicts',
          input_schema: {
            type: 'object',
            required: ['verdicts'],
            properties: {
              verdicts: { items: { properties: { rule_id: { type: 'string', enum: ['TEAM-3'] } } } },
            },
          },
        },
      ],
    });
    // The model is sent only the rules without a condition, the action and the evidence.
    const content = JSON.stringify(request?.body);
    expect(content).toContain('Never promise compensation the policy does not allow.');
    expect(content).not.toContain('Refunds over 500');
    expect(content).toContain('mcp__cs__lookup_customer');
    expect(content).toContain('the parcel never arrived');
  });

  it('holds when the model finds the rule violated, quoting its rationale', async () => {
    server.script(
      toolUse('submit_rule_verdicts', verdicts(['TEAM-3', true, 'the agent promised a voucher'])),
    );
    expect(await judgeRefund(llmJudge())).toEqual({
      kind: 'hold',
      citations: {
        ruleIds: ['TEAM-3'],
        evidenceIds: ['ev-1'],
        rationale:
          'TEAM-3 v1 (hold): Never promise compensation the policy does not allow. (LLM judge: the agent promised a voucher)',
      },
    });
  });

  it('kills when the model finds a kill rule violated', async () => {
    const rules = ruleSet([
      rule({ id: 'R-1', onViolation: 'kill', description: 'No refunds to banned customers.' }),
    ]);
    server.script(toolUse('submit_rule_verdicts', verdicts(['R-1', true, 'the customer is banned'])));
    const verdict = await judgeRefund(llmJudge(), rules);
    expect(verdict.kind).toBe('kill');
    expect(verdict.citations.rationale).toBe(
      'R-1 v1 (kill): No refunds to banned customers. (LLM judge: the customer is banned)',
    );
  });

  it.each([
    [
      'a malformed answer',
      toolUse('submit_rule_verdicts', {
        verdicts: [{ rule_id: 'TEAM-3', violated: 'nope', rationale: 'x' }],
      }),
      'the LLM judge could not decide (the judge\'s submit_rule_verdicts input does not match its schema: /verdicts/0/violated must be boolean. It sent: {"verdicts":[{"rule_id":"TEAM-3","violated":"nope","rationale":"x"}]})',
    ],
    [
      'no tool call',
      reply('Looks fine to me.'),
      'the LLM judge could not decide (the judge did not call submit_rule_verdicts. It said: "Looks fine to me.".)',
    ],
    [
      'an answer that leaves the rule out',
      toolUse('submit_rule_verdicts', verdicts()),
      'the LLM judge could not decide (the model gave no verdict for this rule)',
    ],
    [
      'an answer about a rule it was not asked about',
      toolUse('submit_rule_verdicts', verdicts(['TEAM-9', false, 'fine'])),
      'the LLM judge could not decide (the judge\'s submit_rule_verdicts input does not match its schema: /verdicts/0/rule_id must be equal to one of the allowed values. It sent: {"verdicts":[{"rule_id":"TEAM-9","violated":false,"rationale":"fine"}]})',
    ],
    [
      'an HTTP error (whose body names the key)',
      apiError(401, { type: 'authentication_error', message: `invalid x-api-key ${API_KEY}` }),
      'the LLM judge could not decide (the judge API rejected the credentials (HTTP 401 authentication_error: invalid x-api-key [redacted]): check ANTHROPIC_API_KEY)',
    ],
  ])('holds on %s, saying why', async (_name, step, reason) => {
    server.script(step);
    const verdict = await judgeRefund(llmJudge());
    expect(verdict).toEqual({
      kind: 'hold',
      citations: { ruleIds: ['TEAM-3'], evidenceIds: ['ev-1'], rationale: `TEAM-3 v1 (hold): ${reason}` },
    });
    expect(JSON.stringify(verdict)).not.toContain(API_KEY);
  });

  it('holds only the rule a partial answer leaves out', async () => {
    const rules = ruleSet([rule({ id: 'R-1' }), rule({ id: 'R-2' })]);
    server.script(toolUse('submit_rule_verdicts', verdicts(['R-1', false, 'kept'])));
    expect(await judgeRefund(llmJudge(), rules)).toEqual({
      kind: 'hold',
      citations: {
        ruleIds: ['R-2'],
        evidenceIds: ['ev-1'],
        rationale: 'R-2 v1 (hold): the LLM judge could not decide (the model gave no verdict for this rule)',
      },
    });
  });

  it('retries an overloaded API once', async () => {
    server.script(
      apiError(529, { type: 'overloaded_error', message: 'Overloaded' }, { retryAfter: 0 }),
      toolUse('submit_rule_verdicts', verdicts(['TEAM-3', false, 'kept'])),
    );
    expect((await judgeRefund(llmJudge({ maxRetries: 1 }))).kind).toBe('pass');
    expect(server.requests).toHaveLength(2);
  });

  it('holds without calling the API when no key is set', async () => {
    const judge = new AnthropicLlmJudge({ env: { ANTHROPIC_BASE_URL: server.url } });
    expect((await judgeRefund(judge)).citations.rationale).toBe(
      'TEAM-3 v1 (hold): the LLM judge could not decide (the judge model (anthropic) needs credentials: set ANTHROPIC_API_KEY or the apiKey option (or ANTHROPIC_AUTH_TOKEN for a bearer token, CLAUDE_CODE_OAUTH_TOKEN for a Claude subscription))',
    );
    expect(server.allRequests).toHaveLength(0);
  });

  it('holds when the API cannot be reached', async () => {
    const judge = new AnthropicLlmJudge({ apiKey: API_KEY, baseUrl: 'http://127.0.0.1:1', maxRetries: 0 });
    const verdict = await judgeRefund(judge);
    expect(verdict.kind).toBe('hold');
    expect(verdict.citations.rationale).toMatch(
      /^TEAM-3 v1 \(hold\): the LLM judge could not decide \(the judge API at http:\/\/127\.0\.0\.1:1 could not be reached: fetch failed \(.*\)\)$/,
    );
  });
});

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkAgentRun } from '../../../src/runner/check-agent-run.js';
import { type AgentSandbox, BASE, brief, createSandbox, lines } from './agent-sandbox.js';

// limits: values a user gets wrong, with the message `holodeck validate` (and `test`) shows.

let sandbox: AgentSandbox;
beforeEach(async () => {
  sandbox = await createSandbox();
});
afterEach(() => sandbox.remove());

const withCase = (...limits: string[]) =>
  lines(...BASE, 'test_cases:', '  - name: a', '    input: hi', '    limits:', ...limits);

describe('limits:', () => {
  it('rejects 0, negative and fractional counts, and a cost of 0', async () => {
    const result = await sandbox.validate(
      withCase('      tokens: 0', '      messages: -2', '      tool_calls: 1.5', '      cost: 0'),
    );
    expect(result.issues.map(brief)).toEqual([
      '11:15 test_cases[0].limits.tokens: must be at least 1, got the number 0',
      '12:17 test_cases[0].limits.messages: must be at least 1, got the number -2',
      '13:19 test_cases[0].limits.tool_calls: expected a whole number, got the number 1.5',
      '14:13 test_cases[0].limits.cost: must be greater than 0, got the number 0',
    ]);
  });

  it('names an unknown key with did-you-mean', async () => {
    const result = await sandbox.validate(withCase('      tool_call: 3'));
    expect(result.issues.map(brief)).toEqual([
      '11:7 test_cases[0].limits.tool_call: unknown key "tool_call" in test_cases[0].limits | did you mean "tool_calls"?',
    ]);
  });

  it('refuses a cost limit where the cost is only known when a run ends (Claude without pricing:)', async () => {
    await sandbox.write(
      'agent.yaml',
      lines(
        ...BASE,
        'default_case:',
        '  limits: { cost: 0.5 }',
        'test_cases:',
        '  - name: a',
        '    input: hi',
      ),
    );
    const result = await checkAgentRun(sandbox.agentFile, { env: {}, homeDir: sandbox.home });
    expect(result.issues.map(brief)).toEqual([
      "8:19 default_case.limits.cost: a cost limit needs each attempt's cost while it runs, which is unknown here (the Claude CLI reports what a run cost only when the run has ended), so it could never stop one | set pricing: in agent.yaml (input_per_million, output_per_million), or limit tokens instead (limits.tokens)",
    ]);
  });
});

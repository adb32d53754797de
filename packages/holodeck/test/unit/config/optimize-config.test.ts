import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type AgentSandbox, BASE, brief, createSandbox, lines } from './agent-sandbox.js';

let sandbox: AgentSandbox;
beforeEach(async () => {
  sandbox = await createSandbox();
});
afterEach(() => sandbox.remove());

async function issuesOf(yaml: string): Promise<string[]> {
  const result = await sandbox.validate(yaml);
  return result.issues.map(brief);
}

const TOOL = [
  'tools:',
  '  - name: lookup',
  '    type: function',
  '    description: Look up an order.',
  '    file: tools.js',
  '    parameters: { type: object, properties: {} }',
];

describe('the optimize: block', () => {
  it('accepts every axis with its values and applies the defaults', async () => {
    const yaml = lines(
      ...BASE,
      'optimize:',
      '  axes: [instructions, temperature, max_turns, model]',
      '  proposer:',
      '    model: { provider: anthropic, name: claude-haiku-4-5 }',
      '  temperatures: [0, 0.5]',
      '  max_turns_values: [4, 8]',
      '  models: [claude-haiku-4-5]',
      '  max_cost: 2.5',
      '  max_time: 20m',
    );
    const result = await sandbox.validate(yaml);
    expect(result.issues.map(brief)).toEqual([]);
    expect(result.agent?.config.optimize).toMatchObject({
      holdout: 0.3,
      repeats: 3,
      max_trials: 10,
      seed: 0,
    });
  });

  it('rejects an unknown axis or key with where it is and a suggestion', async () => {
    const yaml = lines(...BASE, 'optimize:', '  axes: [instructions, temprature]', '  maxtrials: 3');
    expect(await issuesOf(yaml)).toEqual([
      '8:24 optimize.axes[1]: expected one of "instructions", "temperature", "max_turns", "model", "tool_descriptions"; got the string "temprature" | did you mean "temperature"?',
      '9:3 optimize.maxtrials: unknown key "maxtrials" in optimize | did you mean "max_trials"?',
    ]);
  });

  it('says an axis without values, values without their axis, and a repeated axis', async () => {
    const yaml = lines(
      ...BASE,
      'optimize:',
      '  axes: [temperature, instructions, instructions]',
      '  models: [claude-haiku-4-5]',
    );
    expect(await issuesOf(yaml)).toEqual([
      '8:10 optimize.axes[0]: axis temperature has no values to try | add temperatures: [...] beside axes',
      '8:37 optimize.axes[2]: axis instructions is listed twice',
      '9:3 optimize.models: has no effect: model is not in optimize.axes | add model to axes, or remove models',
    ]);
  });

  it('names a tool_descriptions key that is no tool', async () => {
    const yaml = lines(
      ...BASE,
      ...TOOL,
      'optimize:',
      '  axes: [tool_descriptions]',
      '  tool_descriptions:',
      '    lokup: [Finds an order by its number.]',
    );
    expect((await issuesOf(yaml)).filter((problem) => problem.includes('optimize'))).toEqual([
      '16:5 optimize.tool_descriptions.lokup: no tool is named "lokup" | the tools are lookup',
    ]);
  });

  it('rejects a bad duration and an out-of-range holdout', async () => {
    const yaml = lines(...BASE, 'optimize:', '  axes: [instructions]', '  holdout: 0.9', '  max_time: soon');
    const problems = await issuesOf(yaml);
    expect(problems[0]).toBe('9:12 optimize.holdout: must be at most 0.8, got the number 0.9');
    expect(problems[1]).toMatch(/^10:13 optimize\.max_time: /);
  });
});

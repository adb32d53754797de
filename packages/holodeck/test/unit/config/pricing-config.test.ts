import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type AgentSandbox, BASE, brief, createSandbox, lines } from './agent-sandbox.js';

let sandbox: AgentSandbox;
beforeEach(async () => {
  sandbox = await createSandbox();
});
afterEach(() => sandbox.remove());

async function issuesOf(...pricing: string[]): Promise<string[]> {
  const result = await sandbox.validate(lines(...BASE, 'pricing:', ...pricing));
  return result.issues.map(brief);
}

describe('pricing: in agent.yaml', () => {
  it('accepts input and output prices, and optional cache prices', async () => {
    expect(
      await issuesOf(
        '  input_per_million: 2.5',
        '  output_per_million: 10',
        '  cached_input_per_million: 1.25',
        '  cache_write_per_million: 3.125',
      ),
    ).toEqual([]);
  });

  it('says where a bad price is and what to write', async () => {
    expect(await issuesOf('  input_per_million: -1', '  output_per_million: 10')).toEqual([
      '8:22 pricing.input_per_million: must be at least 0, got the number -1',
    ]);
    expect(await issuesOf('  input_per_million: "cheap"', '  output_per_million: 10')).toEqual([
      '8:22 pricing.input_per_million: expected a number, got the string "cheap"',
    ]);
    expect(await issuesOf('  input_per_million: 1')).toEqual([
      '7:1 pricing.output_per_million: missing required key "output_per_million" in pricing',
    ]);
  });

  it('names an unknown key and the key it is close to', async () => {
    const [problem] = await issuesOf(
      '  input_per_million: 1',
      '  output_per_million: 2',
      '  cached_input_per_milion: 0.5',
    );
    expect(problem).toBe(
      '10:3 pricing.cached_input_per_milion: unknown key "cached_input_per_milion" in pricing | did you mean "cached_input_per_million"?',
    );
  });
});

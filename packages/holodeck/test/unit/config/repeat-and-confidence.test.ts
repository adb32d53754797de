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

describe('repeat and evaluations.confidence', () => {
  it('accepts a number, auto, and auto with bounds, per case and for the suite', async () => {
    const yaml = lines(
      ...BASE,
      'evaluations:',
      '  confidence: 0.9',
      '  repeat: auto',
      'test_cases:',
      '  - name: a',
      '    input: hi',
      '    repeat: 3',
      '  - name: b',
      '    input: hi',
      '    repeat:',
      '      auto: { min: 2, max: 6 }',
    );
    expect(await issuesOf(yaml)).toEqual([]);
  });

  it('says where a bad repeat or confidence is and what to write', async () => {
    const bounds = lines(
      ...BASE,
      'test_cases:',
      '  - name: a',
      '    input: hi',
      '    repeat:',
      '      auto: { min: 5, max: 4 }',
    );
    expect(await issuesOf(bounds)).toEqual([
      '11:28 test_cases[0].repeat.auto.max: repeat auto: max (4) is below min (5) | set max to at least 5',
    ]);
    const confidence = lines(...BASE, 'evaluations:', '  confidence: 95');
    const [problem] = await issuesOf(confidence);
    expect(problem).toMatch(/^8:15 evaluations\.confidence: /);
    expect(problem).toContain('95');
  });
});

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, UsageError } from '../../../../src/errors.js';
import { loadAgent } from '../../../../src/load-agent.js';
import { checkAgentRun } from '../../../../src/runner/check-agent-run.js';
import { resolveMatrix } from '../../../../src/runner/matrix/resolve-matrix.js';
import { inspectMatrix } from '../../../../src/runner/matrix/run-matrix.js';
import { type AgentSandbox, BASE, brief, createSandbox, lines } from '../../config/agent-sandbox.js';

let sandbox: AgentSandbox;
beforeEach(async () => {
  sandbox = await createSandbox();
});
afterEach(() => sandbox.remove());

const ENV = { ANTHROPIC_API_KEY: 'sk-ant-test', OPENAI_API_KEY: 'sk-openai-test' };
const CASES = ['test_cases:', '  - name: hello', '    input: hi'];

/** agent.yaml = BASE (lines 1-6), the matrix from line 7, then one test case. */
async function write(matrix: string[], extra: string[] = CASES) {
  await sandbox.write('agent.yaml', lines(...BASE, 'matrix:', ...matrix, ...extra));
}

async function schemaIssues(...matrix: string[]): Promise<string[]> {
  const result = await sandbox.validate(lines(...BASE, 'matrix:', ...matrix, ...CASES), ENV);
  return result.issues.map(brief);
}

async function inspect(matrix: string[], env: Record<string, string> = ENV, extra: string[] = CASES) {
  await write(matrix, extra);
  const agent = await loadAgent(sandbox.agentFile, { env, homeDir: sandbox.home });
  const written = await resolveMatrix(agent);
  if (!written) throw new Error('no matrix');
  return inspectMatrix(agent, written);
}

describe('matrix: in agent.yaml, the schema', () => {
  it('names an unknown override and the key it is close to', async () => {
    expect(
      await schemaIssues('  variants:', '    - name: a', '      modle: {name: claude-haiku-4-5}'),
    ).toEqual([
      '10:7 matrix.variants[0].modle: unknown key "modle" in matrix.variants[0] | did you mean "model"?',
    ]);
  });

  it('refuses variants and axes together, an empty matrix, and a temperature set twice', async () => {
    expect(await schemaIssues('  variants: [{name: a}]', '  temperature: [0, 1]')).toEqual([
      '9:3 matrix.temperature: set either variants or axes (models, instructions, temperature, max_turns), not both | list every combination under variants, or drop variants and let the axes cross',
    ]);
    expect(await schemaIssues('  {}')).toEqual([
      '7:1 matrix: a matrix needs variants or at least one axis | add variants: [{name: a, model: {...}}, ...], or an axis: models, instructions, temperature, max_turns',
    ]);
    expect(
      await schemaIssues(
        '  variants:',
        '    - name: gpt',
        '      temperature: 0.2',
        '      model: {provider: openai, name: gpt-4o, temperature: 0.3}',
      ),
    ).toEqual([
      '10:20 matrix.variants[0].temperature: temperature is set twice in this variant, here and in model.temperature | keep one of them',
    ]);
  });

  it('refuses a duplicate or malformed variant name', async () => {
    expect(await schemaIssues('  variants:', '    - name: a', '    - name: a', '      max_turns: 2')).toEqual(
      [
        '10:13 matrix.variants[1].name: duplicate variant name "a" | variants[0] has it already: give each variant its own name',
      ],
    );
    const [bad] = await schemaIssues('  variants:', '    - name: "a, b"');
    expect(bad).toMatch(
      /^9:13 matrix\.variants\[0\]\.name: must start with a letter or digit and hold only letters, digits and \. _ : @ \+ = \/ -/,
    );
  });
});

describe('expanding a matrix', () => {
  it('crosses the axes in order, each variant named after what it overrides', async () => {
    await sandbox.write('prompts/terse.md', 'Be terse.');
    const inspection = await inspect([
      '  models:',
      '    - {name: claude-haiku-4-5}',
      '    - {provider: openai, name: gpt-4o}',
      '  instructions:',
      '    - {file: prompts/terse.md}',
      '    - {inline: Be chatty.}',
      '  max_turns: [2, 4]',
    ]);
    expect(inspection.issues.map(brief)).toEqual([]);
    const variants = inspection.variants ?? [];
    expect(variants.map((variant) => variant.name)).toEqual([
      'claude-haiku-4-5/terse/turns2',
      'claude-haiku-4-5/terse/turns4',
      'claude-haiku-4-5/inline-1/turns2',
      'claude-haiku-4-5/inline-1/turns4',
      'gpt-4o/terse/turns2',
      'gpt-4o/terse/turns4',
      'gpt-4o/inline-1/turns2',
      'gpt-4o/inline-1/turns4',
    ]);
    const [haiku, , , , gpt] = variants;
    expect(haiku?.backend).toBe('claude');
    expect(haiku?.agent.config.model).toMatchObject({ provider: 'anthropic', name: 'claude-haiku-4-5' });
    expect(haiku?.agent.instructions).toBe('Be terse.');
    expect(haiku?.agent.config.max_turns).toBe(2);
    expect(haiku?.agent.config.matrix).toBeUndefined();
    expect(gpt?.backend).toBe('ai-sdk');
    // Another provider replaces the model: anthropic's auth_provider default does not carry over.
    expect(gpt?.agent.config.model).toEqual({ provider: 'openai', name: 'gpt-4o' });
  });

  it('merges a model of the same provider over the agent\'s, and names a variant that overrides nothing "base"', async () => {
    const inspection = await inspect([
      '  variants:',
      '    - {}',
      '    - model: {name: claude-haiku-4-5, max_tokens: 500}',
    ]);
    const [base, haiku] = inspection.variants ?? [];
    expect(base?.name).toBe('base');
    expect(base?.agent.config.model.name).toBe('claude-sonnet-4-5');
    expect(haiku?.name).toBe('claude-haiku-4-5');
    expect(haiku?.agent.config.model).toEqual({
      provider: 'anthropic',
      name: 'claude-haiku-4-5',
      max_tokens: 500,
      auth_provider: 'api_key',
    });
  });

  it('says where each variant is wrong and how to fix it', async () => {
    const inspection = await inspect([
      '  variants:',
      '    - model: {provider: openai}',
      '    - temperature: 0.5',
      '    - instructions: {file: missing.md}',
      '    - model: {api_key: sk-literal}',
    ]);
    expect(inspection.issues.map(brief)).toEqual([
      '9:7 matrix.variants[0].model.name: variant "openai:claude-sonnet-4-5": missing required key "name" in model | the variant changes the provider to openai, so its model is not merged with agent.yaml\'s: write every field it needs',
      '10:20 matrix.variants[1].temperature: variant "t0.5" runs on provider anthropic, and the Claude Agent SDK has no temperature setting: it would have no effect | give a temperature only to variants of other providers (list the combinations under variants:)',
      expect.stringMatching(
        /^11:28 matrix\.variants\[2\]\.instructions\.file: variant "missing": instructions file not found: .*missing\.md \| create the file or fix the path/,
      ),
      '12:24 matrix.variants[3].model.api_key: variant "anthropic:claude-sonnet-4-5" (provider anthropic): model.api_key: model.api_key is not used by provider anthropic (the Claude Agent SDK), so it would have no effect | set ANTHROPIC_API_KEY in the environment or .env (model.auth_provider picks the kind of credential)',
    ]);
  });

  it('refuses two variants that get the same name', async () => {
    const inspection = await inspect(['  variants:', '    - max_turns: 2', '    - max_turns: 2']);
    expect(inspection.issues.map(brief)).toEqual([
      '10:7 matrix.variants[1]: two variants are both named "turns2" | the name is derived from what they override; give them names: list them under variants: with name: each',
    ]);
  });

  it("checks the suite on each variant's backend: a Claude built-in is unknown to an OpenAI variant", async () => {
    const inspection = await inspect(
      ['  variants:', '    - name: gpt', '      model: {provider: openai, name: gpt-4o}'],
      ENV,
      [
        'claude:',
        '  file_system: {read: true}',
        'test_cases:',
        '  - name: reads',
        '    input: read it',
        '    expected_tools: [Read]',
      ],
    );
    expect(inspection.issues.map(brief)).toEqual([
      expect.stringMatching(
        /^\d+:\d+ test_cases\[0\]\.expected_tools\[0\]: variant "gpt": test case "reads" expects unknown tool "Read"/,
      ),
    ]);
  });

  it('names the credential a variant lacks, at the variant', async () => {
    const inspection = await inspect(
      ['  variants:', '    - name: gpt', '      model: {provider: openai, name: gpt-4o}'],
      {
        ANTHROPIC_API_KEY: 'sk-ant-test',
      },
    );
    expect(inspection.issues).toEqual([]);
    expect(inspection.missingCredentials.map(brief)).toEqual([
      '10:7 matrix.variants[0].model: variant "gpt": provider openai needs OPENAI_API_KEY (or model.api_key), which is not set here | set it in the environment or in .env next to agent.yaml, or leave this variant out of the matrix',
    ]);
  });

  it("holodeck validate reports a variant's problems and warns about its missing credentials", async () => {
    await write([
      '  variants:',
      '    - name: gpt',
      '      model: {provider: openai, name: gpt-4o}',
      '    - temperature: 0.5',
    ]);
    const result = await checkAgentRun(sandbox.agentFile, {
      env: { ANTHROPIC_API_KEY: 'x' },
      homeDir: sandbox.home,
    });
    expect(result.issues.map(brief)).toEqual([
      '11:20 matrix.variants[1].temperature: variant "t0.5" runs on provider anthropic, and the Claude Agent SDK has no temperature setting: it would have no effect | give a temperature only to variants of other providers (list the combinations under variants:)',
    ]);
    expect(result.warnings.map((warning) => `${warning.line} ${warning.message}`)).toContain(
      '10 variant "gpt": provider openai needs OPENAI_API_KEY (or model.api_key), which is not set here: `holodeck test` will stop until it is.',
    );
  });
});

describe('--matrix', () => {
  it('reads the matrix written inline, with its problems at --matrix:line:column', async () => {
    await write(['  variants: [{name: a}]']);
    const agent = await loadAgent(sandbox.agentFile, { env: ENV, homeDir: sandbox.home });
    const written = await resolveMatrix(agent, '{max_turns: [1, 3]}');
    expect(written?.matrix).toEqual({ max_turns: [1, 3] });
    const error = await resolveMatrix(agent, '{max_turns: [1], modls: []}').catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).issues.map((issue) => `${issue.file}:${brief(issue)}`)).toEqual([
      '--matrix:1:18 modls: unknown key "modls" at the top level | did you mean "models"?',
    ]);
  });

  it('reads a matrix file, its own block or under a matrix: key, and refuses a file that is not there', async () => {
    await write(['  variants: [{name: a}]']);
    const agent = await loadAgent(sandbox.agentFile, { env: ENV, homeDir: sandbox.home });
    const file = await sandbox.write(
      'matrix.yaml',
      lines('matrix:', '  variants:', '    - name: b', '      max_turns: zero'),
    );
    const error = await resolveMatrix(agent, file).catch((caught: unknown) => caught);
    expect((error as ConfigError).issues.map((issue) => `${issue.file}:${brief(issue)}`)).toEqual([
      `${file}:4:18 matrix.variants[0].max_turns: expected a number, got the string "zero"`,
    ]);
    await expect(resolveMatrix(agent, 'nowhere.yaml')).rejects.toThrow(UsageError);
    await expect(resolveMatrix(agent, 'nowhere.yaml')).rejects.toThrow(/^--matrix: no file .*nowhere\.yaml/);
  });
});

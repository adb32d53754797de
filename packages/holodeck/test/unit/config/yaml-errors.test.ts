import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadAgentConfig, validateAgentFile } from '../../../src/config/index.js';
import { loadTestCasesFile } from '../../../src/config/load-test-cases-file.js';
import { ConfigError } from '../../../src/errors.js';
import { type AgentSandbox, BASE, brief, createSandbox, lines } from './agent-sandbox.js';

let sandbox: AgentSandbox;
beforeEach(async () => {
  sandbox = await createSandbox();
});
afterEach(() => sandbox.remove());

describe('YAML problems', () => {
  it('reports a syntax error with its line and stops there', async () => {
    const result = await sandbox.validate(
      lines('name: test-agent', 'model: [anthropic', 'instructions:', '  inline: hi'),
    );
    expect(result.issues.map(brief)).toEqual([
      '3:1 : invalid YAML: Flow sequence in block collection must be sufficiently indented and end with a ] | check the indentation, quotes and brackets on this line and the one before it',
    ]);
    expect(result.agent).toBeUndefined();
  });

  it('throws a ConfigError whose message shows file:line', async () => {
    await sandbox.write('agent.yaml', lines('name: "unterminated'));
    const error = await loadAgentConfig(sandbox.agentFile, { env: {}, homeDir: sandbox.home }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ConfigError);
    expect(String(error)).toContain(`${sandbox.agentFile}:2:1  invalid YAML: Missing closing "quote`);
  });

  it('says so when the file is empty or holds only comments', async () => {
    for (const text of ['', '# just a comment\n']) {
      const result = await sandbox.validate(text);
      expect(result.issues.map(brief)).toEqual([
        '1:1 : agent.yaml is empty | start with name:, model: (provider and name) and instructions: (inline or file)',
      ]);
    }
  });

  it('says so when the top level is not a mapping', async () => {
    const result = await sandbox.validate(lines('- name: test-agent'));
    expect(result.issues.map(brief)).toEqual([
      '1:1 : the top level of agent.yaml must be a mapping of keys, got a list | write keys such as name:, model: and instructions: at the start of lines, without a leading "- "',
    ]);
  });

  it('reports duplicate keys at the second occurrence and goes on checking', async () => {
    const result = await sandbox.validate(
      lines(
        ...BASE.slice(0, 4),
        '  name: claude-opus-4',
        ...BASE.slice(4),
        'name: other',
        'claude:',
        '  web_search: 1',
      ),
    );
    expect(result.issues.map(brief)).toEqual([
      '5:3 model.name: duplicate key "name" in model | "name" is already set on line 4; keep only one of them',
      '8:1 name: duplicate key "name" at the top level | "name" is already set on line 1; keep only one of them',
      '10:15 claude.web_search: expected a boolean, got the number 1',
    ]);
  });

  it('reports a missing agent file', async () => {
    const missing = path.join(sandbox.dir, 'nope.yaml');
    const result = await validateAgentFile(missing, { env: {}, homeDir: sandbox.home });
    expect(result.issues).toEqual([
      { file: missing, path: '', message: 'agent file not found', hint: 'pass the path of an agent.yaml' },
    ]);
  });
});

describe('YAML the way people write it (issue 25)', () => {
  it('an unquoted ${VAR:-default} in a flow mapping says to quote it, once for its line', async () => {
    const result = await sandbox.validate(
      lines(
        'name: test-agent',
        'model: {provider: openai, name: ${MODEL:-gpt-4o}}',
        'instructions:',
        '  inline: hi',
      ),
    );
    expect(result.issues.map(brief)).toEqual([
      '2:34 : invalid YAML: Unexpected flow-map-start at node end | ${MODEL:-gpt-4o} inside a flow mapping or list ({ … } or [ … ]) is read as YAML syntax: quote it, e.g. "${MODEL:-gpt-4o}"',
    ]);
    // Quoted, it is a value like any other.
    const quoted = await sandbox.validate(
      lines(
        'name: test-agent',
        'model: {provider: anthropic, name: "${MODEL:-claude-sonnet-4-5}"}',
        'instructions:',
        '  inline: hi',
      ),
    );
    expect(quoted.issues).toEqual([]);
    expect(quoted.agent?.config.model.name).toBe('claude-sonnet-4-5');
  });

  it('reads merge keys (<<: *anchor) as YAML 1.1 defines them', async () => {
    const result = await sandbox.validate(
      lines(
        'name: test-agent',
        'model: &model',
        '  provider: anthropic',
        '  name: claude-sonnet-4-5',
        'instructions:',
        '  inline: hi',
        'evaluations:',
        '  model:',
        '    <<: *model',
        '    name: claude-haiku-4-5',
      ),
    );
    expect(result.issues.map(brief)).toEqual([]);
    expect(result.agent?.config.evaluations?.model).toMatchObject({
      provider: 'anthropic',
      name: 'claude-haiku-4-5',
    });
    expect(result.agent?.config.model.name).toBe('claude-sonnet-4-5');
  });

  it('a JSON Lines test_cases_file is read one case per line, each problem at its line', async () => {
    const file = await sandbox.write('cases.jsonl', '{"name": "a", "input": "a"}\n{"input": "b"}\n');
    const error = await loadTestCasesFile(file).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).issues.map(brief)).toEqual([
      '2:1 [1].name: missing required key "name" in [1]',
    ]);
    await sandbox.write('cases.jsonl', '{"name": "a", "input": "a"}\n{"name": "b", "input": "b"}\n');
    expect((await loadTestCasesFile(file)).cases.map((testCase) => testCase.name)).toEqual(['a', 'b']);
  });
});

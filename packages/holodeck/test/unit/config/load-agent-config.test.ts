import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadAgentConfig, validateAgentFile } from '../../../src/config/index.js';
import { ConfigError } from '../../../src/errors.js';
import { type AgentSandbox, createSandbox, lines } from './agent-sandbox.js';

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/config');
const VALID = path.join(FIXTURES, 'valid-agent');
const options = { env: {}, homeDir: os.tmpdir() };

let sandbox: AgentSandbox;
beforeEach(async () => {
  sandbox = await createSandbox();
});
afterEach(() => sandbox.remove());

describe('loadAgentConfig', () => {
  it('loads a complete agent: instructions, response format, defaults, absolute paths', async () => {
    const agent = await loadAgentConfig(
      path.relative(process.cwd(), path.join(VALID, 'agent.yaml')),
      options,
    );
    expect(agent.file).toBe(path.join(VALID, 'agent.yaml'));
    expect(agent.directory).toBe(VALID);
    expect(agent.instructions).toBe('You are a helpful support agent.\n');
    expect(agent.responseFormat).toMatchObject({ type: 'object', required: ['answer'] });
    expect(agent.warnings).toEqual([]);

    const { config } = agent;
    expect(config.description).toBe('Answers questions about HoloDeck');
    expect(config.model.auth_provider).toBe('api_key');
    expect(config.instructions.file).toBe(path.join(VALID, 'prompts/system.md'));
    expect(config.response_format).toBe(path.join(VALID, 'schemas/answer.json'));
    expect(config.claude).toMatchObject({
      working_directory: path.join(VALID, 'workspace'),
      permission_mode: 'acceptEdits',
      web_search: false,
      setting_sources: [],
      file_system: { read: true, write: false, edit: false },
    });
    expect(config.tools).toMatchObject([
      { type: 'function', file: path.join(VALID, 'tools/orders.mjs'), function: 'lookup_order' },
      // A bare command is looked up on PATH; only ./ and ../ are relative to agent.yaml.
      {
        type: 'mcp',
        command: 'npx',
        cwd: path.join(VALID, 'workspace'),
        transport: 'stdio',
        request_timeout: 60,
      },
      { type: 'mcp', command: path.join(VALID, 'tools/server.sh') },
      { type: 'mcp', transport: 'http', headers: { Authorization: 'Bearer none' } },
    ]);
  });

  it('applies provider defaults: ollama endpoint; no auth_provider for others', async () => {
    const yaml = lines(
      'name: local',
      'model:',
      '  provider: ollama',
      '  name: llama3',
      'instructions:',
      '  inline: hi',
    );
    const result = await sandbox.validate(yaml);
    expect(result.agent?.config.model).toEqual({
      provider: 'ollama',
      name: 'llama3',
      endpoint: 'http://localhost:11434',
    });
  });

  it('resolves ../ paths against the agent folder, not the working directory', async () => {
    await sandbox.write('../shared/prompt.md', 'shared prompt');
    const result = await sandbox.validate(
      lines(
        'name: a',
        'model:',
        '  provider: anthropic',
        '  name: c',
        'instructions:',
        '  file: ../shared/prompt.md',
      ),
    );
    expect(result.agent?.instructions).toBe('shared prompt');
    expect(result.agent?.config.instructions.file).toBe(path.resolve(sandbox.dir, '../shared/prompt.md'));
  });

  it('throws one ConfigError with every problem, each on its own line', async () => {
    const file = path.join(FIXTURES, 'many-mistakes', 'agent.yaml');
    const error = await loadAgentConfig(file, options).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConfigError);
    if (!(error instanceof ConfigError)) return;
    const distinctLines = new Set(error.issues.map((issue) => issue.line));
    expect(error.issues.length).toBeGreaterThanOrEqual(15);
    expect(distinctLines.size).toBeGreaterThanOrEqual(15);
    expect(error.message).toMatch(/^\d+ problems in agent configuration:\n/);
    expect(error.message).toContain(
      `${file}:26:3  claude.permision_mode: unknown key "permision_mode" in claude\n    hint: did you mean "permission_mode"?`,
    );
    const validation = await validateAgentFile(file, options);
    expect(validation.issues).toEqual(error.issues);
    expect(validation.agent).toBeUndefined();
  });
});

import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createE2eAgent } from './support/e2e-agent.js';
import { runHolodeckCli } from './support/run-holodeck-cli.js';

// Settings that would have no effect, and inputs that are not what they look like: `validate`
// says so (exit 2, or a warning), with the place and a fix. No model is reached.
const NOWHERE = 'http://127.0.0.1:9';

async function validate(agent: ReturnType<typeof createE2eAgent>, cwd?: string, target = agent.file) {
  return runHolodeckCli(['validate', target], agent.env, '', cwd);
}

describe('settings accepted today but ignored are refused, or warned of', () => {
  it('model.api_key, endpoint, organization, deployment and api_version on provider anthropic', async () => {
    const agent = createE2eAgent(NOWHERE, {
      config: {
        model: {
          provider: 'anthropic',
          name: 'claude-sonnet-4-5',
          api_key: 'sk-x',
          endpoint: 'https://example.test',
          organization: 'org',
          deployment: 'dep',
          api_version: '2024-01-01',
        },
      },
    });
    const outcome = await validate(agent);
    expect(outcome.code).toBe(2);
    for (const field of ['api_key', 'endpoint', 'organization', 'deployment', 'api_version'])
      expect(outcome.stderr).toContain(
        `model.${field}: model.${field} is not used by provider anthropic (the Claude Agent SDK), so it would have no effect`,
      );
    expect(outcome.stderr).toContain('hint: set ANTHROPIC_BASE_URL in the environment or .env');
  });

  it('validate prints the startup warnings chat prints (model.temperature on anthropic)', async () => {
    const agent = createE2eAgent(NOWHERE, {
      config: { model: { provider: 'anthropic', name: 'claude-sonnet-4-5', temperature: 0.2 } },
    });
    const outcome = await validate(agent);
    expect(outcome.code).toBe(0);
    expect(outcome.stderr).toMatch(
      /^warning \S*agent\.yaml:\d+ {2}model\.temperature is not supported by the Claude Agent SDK and is ignored for provider: anthropic\.$/m,
    );
  });

  it("the judge's temperature", async () => {
    const agent = createE2eAgent(NOWHERE, {
      config: {
        evaluations: { model: { provider: 'anthropic', name: 'claude-haiku-4-5', temperature: 0.7 } },
      },
    });
    const outcome = await validate(agent);
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toContain(
      'evaluations.model.temperature: the judge answers at temperature 0 (so re-runs agree) and uses evaluations.model.temperature only for repeated judgements, which no metric makes: it would have no effect',
    );
  });

  it('mode on contains-any / contains-all', async () => {
    const agent = createE2eAgent(NOWHERE, {
      config: {
        test_cases: [
          {
            name: 'one',
            input: 'hi',
            metrics: [{ type: 'contains-any', value: ['a', 'b'], mode: 'all' }],
          },
        ],
      },
    });
    const outcome = await validate(agent);
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toContain(
      'test_cases[0].metrics[0].mode: mode does not apply to contains-any: its name already says how a list matches',
    );
    expect(outcome.stderr).toContain('hint: remove mode, or use type: contains with mode: all');
  });

  it('chat --json without -p, and chat -p with an empty message', async () => {
    const agent = createE2eAgent(NOWHERE);
    const json = await runHolodeckCli(['chat', agent.file, '--json'], agent.env, 'hi\n');
    expect(json).toMatchObject({
      code: 2,
      stderr:
        'error --json: prints the result of one answer, so it needs -p\n    hint: holodeck chat agent.yaml -p "<message>" --json\n',
    });
    const empty = await runHolodeckCli(['chat', agent.file, '-p', ''], agent.env);
    expect(empty).toMatchObject({
      code: 2,
      stderr: 'error -p: the message is empty\n    hint: give the message to send: -p "<message>"\n',
    });
  });
});

describe('suspicious inputs', () => {
  it.each([
    ['empty', '  \n', 'is empty'],
    ['binary', 'ab\u0000cd', 'holds binary data (a NUL byte at line 1)'],
    ['Latin-1', Buffer.from('caf\u00e9\n', 'latin1'), 'is not UTF-8 (byte 0xE9 at line 1, e.g. Latin-1)'],
    ['30 MB', 'x'.repeat(30 * 1024 * 1024), 'is 30.0 MB; at most 1 MB is read'],
  ])('an instructions file that is %s is refused', async (_kind, content, problem) => {
    const agent = createE2eAgent(NOWHERE, { config: { instructions: { file: 'prompt.md' } } });
    writeFileSync(path.join(agent.directory, 'prompt.md'), content);
    const outcome = await validate(agent);
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toContain(
      `instructions.file: instructions file ${path.join(agent.directory, 'prompt.md')} ${problem}`,
    );
  });

  it('Latin-1 bytes in agent.yaml are refused with their line', async () => {
    const agent = createE2eAgent(NOWHERE);
    writeFileSync(
      agent.file,
      Buffer.from(
        'name: a\nmodel: {provider: anthropic, name: claude-sonnet-4-5}\ninstructions: {inline: "caf\u00e9"}\n',
        'latin1',
      ),
    );
    const outcome = await validate(agent);
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toContain(
      'agent file is not UTF-8 (byte 0xE9 at line 3, e.g. Latin-1)\n    hint: save agent.yaml as UTF-8 text',
    );
  });

  it('`validate .` reads ./agent.yaml; a missing agent.yaml next to agent.yml gets a did-you-mean', async () => {
    const agent = createE2eAgent(NOWHERE);
    const here = await validate(agent, agent.directory, '.');
    expect(here).toMatchObject({ code: 0, stdout: '✓ . is valid\n' });
    const renamed = path.join(agent.directory, 'agent.yml');
    writeFileSync(renamed, 'name: a\n');
    const { renameSync } = await import('node:fs');
    renameSync(agent.file, path.join(agent.directory, 'other.yaml'));
    const missing = await validate(agent, agent.directory, 'agent.yaml');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`agent file not found\n    hint: did you mean ${renamed}?`);
  });

  it('a malformed .env line is an error with its line', async () => {
    const agent = createE2eAgent(NOWHERE, {
      files: { '.env': '# keys\nGOOD=1\nMULTI="a\nb"\nthis is not an assignment\nexport ALSO=2\n' },
    });
    const outcome = await validate(agent);
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toContain(
      `${path.join(agent.directory, '.env')}:5:1  line 5 of this .env file is not NAME=value, so it sets nothing`,
    );
    expect(outcome.stderr.match(/is not NAME=value/g)).toHaveLength(1);
  });

  it('a password written in a postgres:// URL is warned of; a variable is not', async () => {
    const tool = (connection: string) => ({
      type: 'vectorstore',
      name: 'docs',
      description: 'Docs',
      source: 'docs',
      database: { provider: 'postgres', connection_string: connection },
    });
    const agent = createE2eAgent(NOWHERE, {
      config: {
        embedding_provider: { provider: 'openai', name: 'text-embedding-3-small' },
        tools: [tool('postgres://app:hunter2@db.example:5432/app')],
      },
      files: { 'docs/a.md': '# A\n' },
      env: { OPENAI_API_KEY: 'sk-x' },
    });
    const outcome = await validate(agent);
    expect(outcome.stderr).toContain(
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the message shows agent.yaml's ${VAR} syntax
      'tools[0].database.connection_string holds a password written in agent.yaml; use ${VAR} (e.g. postgres://user:${PGPASSWORD}@host/db) and set it in .env or the environment',
    );
    expect(outcome.stderr).not.toContain('hunter2');
    const variable = createE2eAgent(NOWHERE, {
      config: {
        embedding_provider: { provider: 'openai', name: 'text-embedding-3-small' },
        // biome-ignore lint/suspicious/noTemplateCurlyInString: agent.yaml's ${VAR} syntax
        tools: [tool('postgres://app:${PGPASSWORD}@db.example:5432/app')],
      },
      files: { 'docs/a.md': '# A\n' },
      env: { OPENAI_API_KEY: 'sk-x', PGPASSWORD: 'hunter2' },
    });
    expect((await validate(variable)).stderr).not.toContain('holds a password');
  });
});

describe("a user tool module's close() that throws", () => {
  it('is the module’s error, named (exit 3), not a bug in holodeck', async () => {
    const agent = createE2eAgent(NOWHERE, {
      config: {
        tools: [
          {
            type: 'function',
            name: 'lookup',
            description: 'Looks up',
            file: 'tool.mjs',
            parameters: { type: 'object', properties: {} },
          },
        ],
      },
      files: {
        'tool.mjs':
          "export const lookup = () => 'x';\nexport const close = () => { throw new Error('pool gone'); };\n",
      },
    });
    const outcome = await validate(agent);
    expect(outcome.code).toBe(3);
    expect(outcome.stderr).toBe(
      `error close() of a function tool module failed: ${path.join(agent.directory, 'tool.mjs')}: pool gone; fix the module's close() export\n`,
    );
  });
});

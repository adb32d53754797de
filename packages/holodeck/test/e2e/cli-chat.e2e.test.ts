import { chmodSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { apiError, reply } from '@holodeck/testkit';
import { describe, expect, it } from 'vitest';
import { resolveClaudeBinary } from '../../src/backends/claude/resolve-claude-binary.js';
import { createE2eAgent } from './support/e2e-agent.js';
import { runHolodeckCli } from './support/run-holodeck-cli.js';
import { useFakeModel } from './support/use-fake-model.js';

const fake = useFakeModel();

describe('holodeck chat -p', () => {
  it('prints the final response, warnings on stderr, and exits 0', async () => {
    fake().script(reply('Order A-1001 has shipped.'));
    const agent = createE2eAgent(fake().url, {
      config: { model: { provider: 'anthropic', name: 'claude-sonnet-4-5', temperature: 0.2 } },
    });
    const outcome = await runHolodeckCli(['chat', agent.file, '-p', 'Where is A-1001?'], agent.env);
    expect(outcome).toMatchObject({ code: 0, stdout: 'Order A-1001 has shipped.\n' });
    expect(outcome.stderr).toBe(
      'warning model.temperature is not supported by the Claude Agent SDK and is ignored for provider: anthropic.\n',
    );
  });

  it('writes the V8 code caches of the bundled CLI and the vendored SDK to the user cache folder', async () => {
    // The agent's HOME is fresh, so this run finds no cache and writes both as it exits, under
    // ~/.cache/holodeck/code-cache (XDG_CACHE_HOME is not set), and nothing inside the package.
    fake().script(reply('cached'));
    const agent = createE2eAgent(fake().url);
    const outcome = await runHolodeckCli(['chat', agent.file, '-p', 'hi'], agent.env);
    expect(outcome).toMatchObject({ code: 0, stdout: 'cached\n' });
    const cacheDir = path.join(agent.env.HOME ?? '', '.cache', 'holodeck', 'code-cache');
    expect(readdirSync(cacheDir).sort()).toEqual([
      expect.stringMatching(/^claude-agent-sdk\.cjs\.[0-9a-f]{16}\.[0-9a-f]{16}\.v8$/),
      expect.stringMatching(/^main\.cjs\.[0-9a-f]{16}\.[0-9a-f]{16}\.v8$/),
    ]);
    const bundleDir = fileURLToPath(new URL('../../dist/bundle/', import.meta.url));
    expect(readdirSync(path.join(bundleDir, 'cli'))).not.toContain('.code-cache');
    expect(readdirSync(path.join(bundleDir, 'vendor'))).not.toContain('.code-cache');
  });

  it('--json prints the ExecutionResult', async () => {
    fake().script(reply('four'));
    const agent = createE2eAgent(fake().url);
    const outcome = await runHolodeckCli(['chat', agent.file, '-p', '2+2?', '--json'], agent.env);
    expect(outcome.code).toBe(0);
    expect(JSON.parse(outcome.stdout)).toMatchObject({
      response: 'four',
      is_error: false,
      num_turns: 1,
      tool_calls: [],
    });
  });

  it('exits 3 with the reason when the run fails', async () => {
    fake().script(apiError(401, { type: 'authentication_error', message: 'invalid x-api-key' }));
    const agent = createE2eAgent(fake().url);
    const outcome = await runHolodeckCli(['chat', agent.file, '-p', 'hi'], agent.env);
    expect(outcome.code).toBe(3);
    expect(outcome.stdout).toBe('');
    expect(outcome.stderr).toMatch(
      /^error the agent run failed: authentication failed: check ANTHROPIC_API_KEY/,
    );
  });

  it('exits 2 naming the missing credential, before anything is spawned', async () => {
    const agent = createE2eAgent(fake().url);
    const { ANTHROPIC_API_KEY: _removed, ...env } = agent.env;
    const outcome = await runHolodeckCli(['chat', agent.file, '-p', 'hi'], env);
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toBe(
      'error auth_provider "api_key" needs ANTHROPIC_API_KEY but it is not set. Set it in the environment, in .env next to agent.yaml, or in ~/.holodeck/.env.\n',
    );
    expect(fake().allRequests).toHaveLength(0);
  });

  it('exits 2 with a fix when the claude binary is missing', async () => {
    const agent = createE2eAgent(fake().url, { env: { HOLODECK_CLAUDE_PATH: '/nonexistent/claude' } });
    const outcome = await runHolodeckCli(['chat', agent.file, '-p', 'hi'], agent.env);
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toContain(
      'HOLODECK_CLAUDE_PATH points at "/nonexistent/claude", which is not an executable file.',
    );
  });

  it('retries a failed spawn, and only that', async () => {
    fake().script(reply('third time lucky'));
    const agent = createE2eAgent(fake().url);
    const counter = path.join(agent.directory, 'attempts');
    const flaky = path.join(agent.directory, 'flaky-claude.sh');
    writeFileSync(
      flaky,
      `#!/bin/sh\necho x >> "${counter}"\nif [ "$(wc -l < "${counter}")" -lt 3 ]; then echo "flaky start" >&2; exit 1; fi\nexec "${resolveClaudeBinary({ env: {} })}" "$@"\n`,
    );
    chmodSync(flaky, 0o755);
    const outcome = await runHolodeckCli(['chat', agent.file, '-p', 'hi'], {
      ...agent.env,
      HOLODECK_CLAUDE_PATH: flaky,
    });
    expect(outcome).toMatchObject({ code: 0, stdout: 'third time lucky\n' });
    expect(readFileSync(counter, 'utf8').split('\n').filter(Boolean)).toHaveLength(3);
  });

  it('warns about a project CLAUDE.md in the working directory', async () => {
    fake().script(reply('ok'));
    const agent = createE2eAgent(fake().url, {
      config: { claude: { working_directory: 'work' } },
      files: { 'work/CLAUDE.md': '# CLAUDE.md\nProject notes for developers.\n' },
    });
    const outcome = await runHolodeckCli(['chat', agent.file, '-p', 'hi'], agent.env);
    expect(outcome.code).toBe(0);
    expect(outcome.stderr).toMatch(/^warning .*CLAUDE\.md/);
  });
});

describe('holodeck chat (conversation on stdin)', () => {
  it('keeps one session across lines and reports the session id for --resume', async () => {
    fake().script(reply('Hi Ada.'), reply('You are Ada.'));
    const agent = createE2eAgent(fake().url);
    const outcome = await runHolodeckCli(['chat', agent.file], agent.env, 'I am Ada\nWho am I?\n/exit\n');
    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toBe('Hi Ada.\nYou are Ada.\n');
    expect(outcome.stderr).toMatch(/Session [0-9a-f-]{36} \(resume with --resume [0-9a-f-]{36}\)/);
    expect(JSON.stringify(fake().requests[1]?.messagesBody?.messages)).toContain('I am Ada');
  });
});

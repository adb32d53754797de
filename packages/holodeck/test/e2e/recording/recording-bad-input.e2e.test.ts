import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { caseFileName } from '../../../src/recording/recording-file.js';
import { createE2eAgent } from '../support/e2e-agent.js';
import { runHolodeckCli } from '../support/run-holodeck-cli.js';

// Bad recording flags and files stop `holodeck test` before anything runs (exit 2), with a message
// naming the flag or the file and line. The base URL points nowhere: no model is ever asked.

const NOWHERE = 'http://127.0.0.1:9';

function agentWithRecording(content: string, config: Record<string, unknown> = {}) {
  const agent = createE2eAgent(NOWHERE, {
    config: { test_cases: [{ name: 'greeting', input: 'Hello!' }], ...config },
  });
  const folder = path.join(agent.directory, '.holodeck', 'recordings');
  mkdirSync(folder, { recursive: true });
  const file = path.join(folder, caseFileName('greeting'));
  writeFileSync(file, content);
  return { agent, file };
}

const VALID = {
  agent: { model: 'claude-sonnet-4-5', name: 'e2e-agent', provider: 'anthropic' },
  case: 'greeting',
  exchanges: [],
  format: 'holodeck-recording',
  holodeck: '0.1.0',
  shared: {},
  tool_calls: [],
  version: 1,
};

describe('holodeck test with bad recording input', () => {
  it('refuses --record with --replay', async () => {
    const agent = createE2eAgent(NOWHERE);
    const outcome = await runHolodeckCli(['test', agent.file, '--record', '--replay'], agent.env);
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toContain('--record: cannot be used with --replay');
  });

  it('refuses --replay of a folder that does not exist', async () => {
    const agent = createE2eAgent(NOWHERE);
    const outcome = await runHolodeckCli(
      ['test', agent.file, '--replay', path.join(agent.directory, 'nope')],
      agent.env,
    );
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toContain(
      `--replay: the recording folder ${path.join(agent.directory, 'nope')} does not exist`,
    );
    expect(outcome.stderr).toContain('record the suite first');
  });

  it('refuses --record-missing, --re-record and --replay-tools without their mode', async () => {
    const agent = createE2eAgent(NOWHERE);
    for (const [flag, needs] of [
      ['--record-missing', '--replay'],
      ['--re-record', '--record'],
      ['--replay-tools', '--replay'],
    ] as const) {
      const outcome = await runHolodeckCli(['test', agent.file, flag], agent.env);
      expect(outcome.code).toBe(2);
      expect(outcome.stderr).toContain(`${flag}: needs ${needs}`);
    }
  });

  it('names the file and line of a recording that is not JSON, and runs nothing', async () => {
    const text = JSON.stringify(VALID, null, 2).replace('"exchanges": [],', '"exchanges": [,');
    const { agent, file } = agentWithRecording(text);
    const outcome = await runHolodeckCli(['test', agent.file, '--replay'], agent.env);
    expect(outcome.code).toBe(2);
    const line = text.split('\n').findIndex((entry) => entry.includes('"exchanges": [,')) + 1;
    expect(outcome.stderr).toMatch(
      new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:${line}:\\d+  not valid JSON`),
    );
    expect(outcome.stdout).not.toContain('Case');
  });

  it('names the file, line and field of a hand-edited recording', async () => {
    const text = JSON.stringify({ ...VALID, exchanges: [{ attempt: 0, turn: 1 }] }, null, 2);
    const { agent, file } = agentWithRecording(text);
    const outcome = await runHolodeckCli(['test', agent.file, '--replay'], agent.env);
    expect(outcome.code).toBe(2);
    const line = text.split('\n').findIndex((entry) => entry.includes('"attempt": 0')) + 1;
    expect(outcome.stderr).toContain(`${file}:${line}:`);
    expect(outcome.stderr).toContain('exchanges[0].attempt:');
    expect(outcome.stderr).toContain('hint: re-record it');
  });

  it('refuses a recording made for another agent, naming both', async () => {
    const text = JSON.stringify({ ...VALID, agent: { ...VALID.agent, name: 'other-agent' } }, null, 2);
    const { agent, file } = agentWithRecording(text);
    const outcome = await runHolodeckCli(['test', agent.file, '--replay'], agent.env);
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toContain(
      `${file}: recorded for agent "other-agent" (provider anthropic), not for this agent "e2e-agent" (provider anthropic)`,
    );
  });

  it('warns about a recording made by another HoloDeck version', async () => {
    const { agent } = agentWithRecording(JSON.stringify({ ...VALID, holodeck: '0.0.1' }, null, 2));
    const outcome = await runHolodeckCli(['test', agent.file, '--replay', '--no-save'], agent.env);
    expect(outcome.stderr).toContain('was recorded by HoloDeck 0.0.1, this is ');
    // The file has no exchange for the request: the case errors, it does not go live.
    expect(outcome.code).toBe(1);
    expect(outcome.stdout + outcome.stderr).toContain('no recording for greeting attempt 1 turn 1 request 1');
  });

  it('refuses to record an agent on Bedrock, whose requests the CLI signs for its own host', async () => {
    const agent = createE2eAgent(NOWHERE, {
      config: {
        model: { provider: 'anthropic', name: 'claude-sonnet-4-5', auth_provider: 'bedrock' },
        test_cases: [{ name: 'greeting', input: 'Hello!' }],
      },
      env: { AWS_REGION: 'eu-west-1', AWS_PROFILE: 'test' },
    });
    const outcome = await runHolodeckCli(['test', agent.file, '--record', '--no-save'], agent.env);
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toContain('--record: model.auth_provider bedrock cannot be recorded or replayed');
  });

  it('says in --help which auth providers cannot be recorded', async () => {
    const outcome = await runHolodeckCli(['test', '--help'], {});
    expect(outcome.stdout).toContain('--record [dir]');
    expect(outcome.stdout).toMatch(/Bedrock, Vertex AI and\s+Foundry/);
  });
});

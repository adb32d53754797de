import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { reply } from '@holodeck/testkit';
import { describe, expect, it } from 'vitest';
import { createE2eAgent } from './support/e2e-agent.js';
import { runHolodeckCli } from './support/run-holodeck-cli.js';
import { useFakeModel } from './support/use-fake-model.js';

// `holodeck test -o …`: several reports at once, `-` for stdout, and reports a CI job can post
// (agent.yaml named relative to the working directory, costs without float noise).
const fake = useFakeModel();
const USAGE = { input_tokens: 1_000, output_tokens: 100 };

function suite() {
  return createE2eAgent(fake().url, {
    config: {
      test_cases: [
        { name: 'a', input: 'one', metrics: [{ type: 'contains', value: 'ok' }] },
        { name: 'b', input: 'two', metrics: [{ type: 'contains', value: 'ok' }] },
        { name: 'c', input: 'three', metrics: [{ type: 'contains', value: 'ok' }] },
      ],
    },
  });
}

describe('holodeck test -o', () => {
  it('-o a.json -o b.xml -o c.md writes all three, naming agent.yaml relative to the cwd', async () => {
    fake().script(...Array.from({ length: 3 }, () => reply('ok', { usage: USAGE })));
    const agent = suite();
    const outcome = await runHolodeckCli(
      ['test', 'agent.yaml', '--no-save', '-c', '1', '-o', 'a.json', '-o', 'b.xml', '-o', 'c.md'],
      agent.env,
      '',
      agent.directory,
    );
    expect(outcome.code, outcome.stderr).toBe(0);
    const json = JSON.parse(readFileSync(path.join(agent.directory, 'a.json'), 'utf8'));
    expect(json.summary).toMatchObject({ total: 3, passed: 3 });
    const xml = readFileSync(path.join(agent.directory, 'b.xml'), 'utf8');
    expect(xml).toContain('<property name="agent_file" value="agent.yaml"/>');
    // 3 × $0.0045 is 0.013500000000000002 as floats add up.
    expect(xml).toContain('<property name="cost_usd" value="0.0135"/>');
    const markdown = readFileSync(path.join(agent.directory, 'c.md'), 'utf8');
    expect(markdown).toContain('· agent.yaml</sub>');
    expect(markdown).not.toContain(agent.directory);
    expect(outcome.stderr).toContain('json report written to a.json');
    expect(outcome.stderr).toContain('junit report written to b.xml');
  });

  it('-o - writes the JSON report to stdout (the summary goes to stderr), never a file named -', async () => {
    fake().script(...Array.from({ length: 3 }, () => reply('ok')));
    const agent = suite();
    const outcome = await runHolodeckCli(
      ['test', agent.file, '--no-save', '-o', '-'],
      agent.env,
      '',
      agent.directory,
    );
    expect(outcome.code, outcome.stderr).toBe(0);
    expect(JSON.parse(outcome.stdout).summary).toMatchObject({ total: 3, passed: 3 });
    expect(outcome.stderr).toMatch(/3 cases: 3 passed/);
    expect(existsSync(path.join(agent.directory, '-'))).toBe(false);
  });

  it('--format with several outputs is refused before anything runs', async () => {
    const agent = suite();
    const outcome = await runHolodeckCli(
      ['test', agent.file, '-o', 'a.json', '-o', 'b.xml', '--format', 'json'],
      agent.env,
    );
    expect(outcome).toMatchObject({
      code: 2,
      stderr:
        'error --format: applies to one --output; with several, each file’s extension says its format\n    hint: use .json, .xml, .md or .html names, e.g. -o report.json -o report.xml\n',
    });
  });
});

import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTrialsFile } from '../../../src/optimize/trials-file.js';
import {
  applyChangesToYaml,
  optimizedFileName,
  unifiedDiff,
} from '../../../src/optimize/write-optimized-agent.js';

const AGENT = `# the support agent
name: support
model:
  provider: anthropic
  name: \${MODEL_NAME}  # from the environment
instructions:
  file: instructions.md
claude:
  max_turns: 5
tools:
  - name: lookup
    type: function
    description: Look up.
    file: tools.js
    parameters: { type: object }
`;

describe('agent.optimized.yaml', () => {
  it('changes only what the candidate changes, keeping comments and ${VAR}s', () => {
    const text = applyChangesToYaml(
      AGENT,
      {
        instructions: 'Line one.\nLine two.',
        temperature: 0.3,
        max_turns: 8,
        tool_descriptions: { lookup: 'Find an order by its number.' },
      },
      ' Written by a test.',
    );
    expect(text).toMatch(/^# Written by a test.\n\n?# the support agent/);
    expect(text).toContain('name: ${MODEL_NAME} # from the environment');
    expect(text).toContain('instructions:\n  inline: |-\n    Line one.\n    Line two.');
    expect(text).toContain('temperature: 0.3');
    expect(text).toContain('max_turns: 8');
    expect(text).not.toMatch(/claude:\n {2}max_turns/);
    expect(text).toContain('description: Find an order by its number.');
  });

  it('is named beside agent.yaml, never agent.yaml itself', () => {
    expect(optimizedFileName('/x/agent.yaml')).toBe('/x/agent.optimized.yaml');
    expect(optimizedFileName('/x/support.yml')).toBe('/x/support.optimized.yml');
  });

  it('diffs with context lines and hunk headers', () => {
    const diff = unifiedDiff('a', 'b', 'one\ntwo\nthree\n', 'one\n2\nthree\n');
    expect(diff).toBe('--- a\n+++ b\n@@ -1,3 +1,3 @@\n one\n-two\n+2\n three\n');
  });
});

describe('trials.jsonl', () => {
  it('drops a last line cut short, and names the file and line of any other bad line', async () => {
    const folder = await mkdtemp(path.join(tmpdir(), 'trials-'));
    const start = JSON.stringify({
      type: 'start',
      schema_version: 1,
      optimize_id: 'x',
      started_at: 'now',
      agent: { name: 'a', file: 'a.yaml', config_hash: 'h' },
      split: { train: ['a'], holdout: [], seed: 0, fraction: 0 },
      settings: {
        axes: ['instructions'],
        repeats: 1,
        confidence: 0.95,
        max_trials: 1,
        max_cost_usd: null,
        max_time_seconds: null,
        replay: false,
      },
    });
    const file = path.join(folder, 'trials.jsonl');
    await writeFile(file, `${start}\n{"type":"tri`);
    expect(await readTrialsFile(file)).toHaveLength(1);
    await writeFile(file, `${start}\n{"type":"trial"}\n`);
    await expect(readTrialsFile(file)).rejects.toThrow(`${file}:2 is not a trials line of this HoloDeck`);
  });
});

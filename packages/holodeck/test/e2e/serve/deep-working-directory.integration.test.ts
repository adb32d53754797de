import { readdirSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  claudeProjectFolderName,
  LONGEST_PROJECT_FOLDER,
} from '../../../src/backends/claude/claude-project-folder.js';
import { backendVariants } from '../both-backends/backend-variants.js';
import type { E2eAgent } from '../support/e2e-agent.js';
import { firstTurnOnAlpha, resumeOnBeta, startTwoInstances, type TwoInstances } from './serve-harness.js';

// A Claude agent whose working directory's path is longer than the 200 characters the CLI names a
// project folder with: the CLI cuts the name and adds a fingerprint of the path. The conversation
// saved to serve.sessions_dir by one instance must land, on the other, in a folder the CLI can
// have: a name of the whole path, past 255 characters, is one no file system takes.

const claude = backendVariants().find((variant) => variant.name === 'claude');
if (!claude) throw new Error('no claude backend variant');

/**
 * A working directory, relative to the agent's folder (`<tmp>/holodeck-e2e-XXXXXX`), that takes its
 * real path to about 300 characters.
 */
const DEEP = path.join(
  'd'.repeat(Math.max(1, 180 - (realpathSync(tmpdir()).length + '/holodeck-e2e-XXXXXX/'.length))),
  'e'.repeat(60),
  'f'.repeat(60),
);

describe('holodeck serve: a Claude session of a very deep working directory, resumed elsewhere', () => {
  const variant = claude;
  let pair: TwoInstances;
  beforeAll(async () => {
    await variant.start();
    pair = await startTwoInstances((shared) =>
      variant.agent(
        { serve: { sessions_dir: shared }, claude: { working_directory: DEEP } },
        { [path.join(DEEP, 'NOTES.md')]: 'deep\n' },
      ),
    );
  });
  afterAll(async () => {
    await pair?.stop();
    await variant.close();
  });

  it('imports the transcript into the project folder the CLI names, and the CLI remembers the conversation', async () => {
    const { agent, other } = pair;
    const workingDirectory = (of: E2eAgent) => realpathSync(path.join(of.directory, DEEP));
    for (const of of [agent, other]) {
      const real = workingDirectory(of);
      expect(real.length).toBeGreaterThan(255);
    }

    const id = await firstTurnOnAlpha(pair, variant);
    // The folder the real CLI made for the deep directory is the one the rule names.
    const folderA = claudeProjectFolderName(workingDirectory(agent));
    expect(folderA).toMatch(new RegExp(`^.{${LONGEST_PROJECT_FOLDER}}-[0-9a-z]+$`));
    expect(readdirSync(path.join(agent.env.HOME ?? '', '.claude', 'projects'))).toEqual([folderA]);

    // Beta's CLI resumed the first turn: it sent it to the model.
    await resumeOnBeta(pair, variant, id);
    // Where HoloDeck put alpha's transcript on beta: the folder of beta's own deep directory.
    const projectsB = path.join(other.env.HOME ?? '', '.claude', 'projects');
    expect(readdirSync(projectsB)).toEqual([claudeProjectFolderName(workingDirectory(other))]);
    variant.checkAndReset();
  });
});

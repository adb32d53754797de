import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { stringify } from 'yaml';
import { loadAgent } from '../../../src/load-agent.js';
import type { ViewLabelWriter } from '../../../src/view/view-label-routes.js';
import { runsFolder, viewRuns } from './view-runs.js';

/** A secret in the environment: it must never reach a labels file. */
export const SECRET = 'sk-ant-view-labels-0123456789abcdef';

/**
 * The view runs' agent folder with an agent.yaml whose judge metric `helpfulness` (run-3's case
 * refund-timing carries its verdict) has `calibration: labels.yaml`, not yet written.
 */
export async function labelledAgent(): Promise<{ runsDir: string; folder: string; writer: ViewLabelWriter }> {
  const runsDir = runsFolder(viewRuns());
  const folder = path.dirname(path.dirname(runsDir));
  const file = path.join(folder, 'agent.yaml');
  writeFileSync(
    file,
    stringify({
      name: 'support',
      model: { provider: 'anthropic', name: 'claude-sonnet-4-5' },
      instructions: { inline: 'You are the support agent.' },
      evaluations: {
        metrics: [
          {
            type: 'g-eval',
            name: 'helpfulness',
            criteria: 'Says when the refund arrives.',
            calibration: 'labels.yaml',
          },
          { type: 'g-eval', name: 'tone', criteria: 'Polite.' },
        ],
      },
      test_cases: [{ name: 'refund-timing', input: 'When will my refund arrive?' }],
    }),
  );
  const env = { ANTHROPIC_API_KEY: SECRET, HOME: folder };
  const agent = await loadAgent(file, { env, homeDir: folder });
  return { runsDir, folder, writer: { agent, secrets: [SECRET], token: 'test-token' } };
}

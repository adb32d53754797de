import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { CaseReport, RunReport } from '../../../src/runner/report/run-report.js';
import { writeJsonReport } from '../../../src/runner/report/write-json-report.js';
import {
  attempt,
  bleu,
  erroredCase,
  judge,
  passingCase,
  runReport,
  testCase,
} from '../runner/report/report-builder.js';

/** The judge's rationale the failed case carries, long enough to need more than one line. */
export const JUDGE_REASON =
  'The answer never says when the refund arrives.\nIt gives no number of days, and it does not mention the warehouse check the policy requires before paying.';
/** A case name with markup: the pages must show it as text. */
export const MARKUP_CASE = '<img src=x onerror=alert(1)> tricky';

const failing = (): CaseReport =>
  testCase('refund-timing', [
    attempt({
      metrics: [bleu(0.31), judge('helpfulness', 0.2, 0.7, JUDGE_REASON)],
      response: 'Refunds take a while.',
    }),
  ]);

const flaky = (): CaseReport =>
  testCase(
    'order-status',
    [
      attempt({ attempt: 1 }),
      attempt({ attempt: 2, metrics: [bleu(0.3)], response: 'It is somewhere.' }),
      attempt({ attempt: 3 }),
    ],
    { tags: ['orders', 'smoke'] },
  );

const governed = (): CaseReport =>
  testCase('big-refund', [
    attempt({
      governance: {
        session_id: 'sess-1',
        killed: false,
        verdicts: [
          {
            tool: 'mcp__holodeck_tools__refund_order',
            action_type: 'refund_order',
            verdict: 'hold',
            hold_status: 'timed_out',
            rule_ids: ['TEAM-2'],
            rationale: 'Refunds over 500 are held for a human.',
          },
        ],
      },
    }),
  ]);

/** Three runs of one agent, oldest first: the second changed the configuration, the third regressed. */
export function viewRuns(): RunReport[] {
  const older = runReport(
    [passingCase('refund-timing'), passingCase('order-status'), passingCase('greeting')],
    {
      run_id: 'run-1',
      started_at: '2026-11-28T09:00:00.000Z',
      finished_at: '2026-11-28T09:00:10.000Z',
    },
  );
  const middle = runReport(
    [passingCase('refund-timing'), passingCase('order-status'), passingCase('greeting')],
    {
      run_id: 'run-2',
      started_at: '2026-11-29T09:00:00.000Z',
      finished_at: '2026-11-29T09:00:12.000Z',
    },
  );
  middle.agent = { ...middle.agent, config_hash: `sha256:${'c3'.repeat(32)}` };
  middle.summary.cost_usd = 0.05;
  const newest = runReport(
    [
      failing(),
      flaky(),
      erroredCase('escalation', 'API error 529: Overloaded (after 3 retries)'),
      governed(),
      passingCase(MARKUP_CASE),
    ],
    { run_id: 'run-3', started_at: '2026-11-30T09:00:00.000Z', finished_at: '2026-11-30T09:00:20.000Z' },
  );
  newest.agent = { ...newest.agent, config_hash: `sha256:${'c3'.repeat(32)}` };
  return [older, middle, newest];
}

/** A runs folder holding `runs` (in a fresh temporary agent folder). */
export function runsFolder(runs: readonly RunReport[]): string {
  const agentFolder = mkdtempSync(path.join(tmpdir(), 'holodeck-view-'));
  const dir = path.join(agentFolder, '.holodeck', 'runs');
  mkdirSync(dir, { recursive: true });
  for (const run of runs) writeFileSync(path.join(dir, `${run.run_id}.json`), writeJsonReport(run));
  return dir;
}

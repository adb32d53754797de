import { describe, expect, it } from 'vitest';
import { createProgressReporter } from '../../../../src/runner/report/progress-reporter.js';
import { terminalCapabilities } from '../../../../src/runner/report/report-style.js';
import {
  attempt,
  bleu,
  erroredCase,
  failingCase,
  judge,
  mixedRun,
  passingCase,
  testCase,
} from './report-builder.js';

function collector(columns?: number) {
  const chunks: string[] = [];
  return { chunks, stream: { columns, write: (text: string) => chunks.push(text) } };
}

function fakeClock(start = 1_000) {
  let now = start;
  return { now: () => now, advance: (milliseconds: number) => (now += milliseconds) };
}

const ESC = '\u001b';

describe('plain progress reporter', () => {
  it('prints exactly one line per finished case', () => {
    const { chunks, stream } = collector();
    const reporter = createProgressReporter({ stream, interactive: false, color: false });
    const report = mixedRun();
    reporter.start(4);
    for (const caseReport of report.cases) {
      reporter.caseStarted(caseReport.name);
      reporter.caseFinished(caseReport);
    }
    reporter.caseFinished(failingCase('tone-check', [bleu(0.41), judge('tone', 0.2)]));
    reporter.finish(report.summary);
    expect(chunks.join('')).toBe(
      [
        'PASS  refund-policy  (1.2 s)',
        'FAIL  shipping-times: metric bleu 0.41 < 0.6',
        'ERROR escalate-angry-customer: API error 529: Overloaded (after 3 retries)',
        'FAIL  tone-check: metric bleu 0.41 < 0.6; metric tone 0.2 < 0.7',
        '',
      ].join('\n'),
    );
  });

  it('spells out repeats, metric errors and multi-line run errors on one line', () => {
    const { chunks, stream } = collector();
    const reporter = createProgressReporter({ stream, interactive: false, color: false });
    const judgeDown = { ...judge('faithfulness', 0), error: 'judge request failed: 503\nretry later' };
    reporter.caseFinished(
      testCase('flaky', [attempt({ attempt: 1 }), attempt({ attempt: 2, metrics: [bleu(0.5), judgeDown] })]),
    );
    reporter.caseFinished(erroredCase('crash', 'claude exited with code 1\nstderr: boom'));
    expect(chunks).toEqual([
      // A judge that could not answer makes the attempt, and so the case, errored, not failed.
      'ERROR flaky: metric faithfulness could not run: judge request failed: 503 …\n',
      'ERROR crash: claude exited with code 1 …\n',
    ]);
  });

  it('colours the status label only when color is true', () => {
    const { chunks, stream } = collector();
    createProgressReporter({ stream, interactive: false, color: true }).caseFinished(
      passingCase('refund-policy'),
    );
    expect(chunks).toEqual([`${ESC}[32mPASS ${ESC}[39m refund-policy  (1.2 s)\n`]);
  });
});

describe('TTY progress reporter', () => {
  it('redraws one status line with \\r and clear-line, and prints failures above it', () => {
    const { chunks, stream } = collector();
    const clock = fakeClock();
    const reporter = createProgressReporter({
      stream,
      interactive: true,
      color: false,
      throttleMs: 0,
      tickMs: 0,
      now: clock.now,
    });
    reporter.start(3);
    reporter.caseStarted('refund-policy');
    clock.advance(1_200);
    const [passed, failed] = mixedRun().cases;
    if (!passed || !failed) throw new Error('fixture');
    reporter.caseFinished(passed);
    reporter.caseStarted('shipping-times');
    clock.advance(1_000);
    reporter.caseFinished(failed);
    reporter.finish(mixedRun().summary);
    expect(chunks).toEqual([
      `\r${ESC}[2K0/3 done · 0 passed · 0 failed · 0 errored · 0.0 s`,
      `\r${ESC}[2K0/3 done · 0 passed · 0 failed · 0 errored · 0.0 s · running refund-policy`,
      `\r${ESC}[2K1/3 done · 1 passed · 0 failed · 0 errored · 1.2 s`,
      `\r${ESC}[2K1/3 done · 1 passed · 0 failed · 0 errored · 1.2 s · running shipping-times`,
      `\r${ESC}[2KFAIL  shipping-times: metric bleu 0.41 < 0.6\n`,
      `\r${ESC}[2K2/3 done · 1 passed · 1 failed · 0 errored · 2.2 s`,
      `\r${ESC}[2K`,
    ]);
    expect(chunks.join('')).not.toMatch(new RegExp(`${ESC}\\[\\d+m`));
  });

  it('throttles redraws, and draws the latest state once the throttle time has passed', async () => {
    const { chunks, stream } = collector();
    const reporter = createProgressReporter({
      stream,
      interactive: true,
      color: false,
      throttleMs: 20,
      tickMs: 0,
    });
    reporter.start(50);
    for (let index = 0; index < 40; index += 1) reporter.caseFinished(passingCase(`case-${index}`));
    expect(chunks).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(chunks).toHaveLength(2);
    expect(chunks[1]?.startsWith(`\r${ESC}[2K40/50 done · 40 passed`)).toBe(true);
    reporter.finish(mixedRun().summary);
  });

  it('cuts the status line to the terminal width so redraws never wrap', () => {
    const { chunks, stream } = collector(72);
    const reporter = createProgressReporter({
      stream,
      interactive: true,
      color: false,
      throttleMs: 0,
      tickMs: 0,
    });
    reporter.start(3);
    reporter.caseStarted('a-very-long-case-name-that-does-not-fit-on-the-line');
    reporter.finish(mixedRun().summary);
    const line = (chunks[1] ?? '').replace(`\r${ESC}[2K`, '');
    expect(line).toBe('0/3 done · 0 passed · 0 failed · 0 errored · 0.0 s · running a-very-lo…');
    expect(line.length).toBeLessThanOrEqual(71);
    const narrow = collector(30);
    const small = createProgressReporter({
      stream: narrow.stream,
      interactive: true,
      color: true,
      throttleMs: 0,
      tickMs: 0,
    });
    small.start(3);
    small.finish(mixedRun().summary);
    expect(narrow.chunks[0]).toBe(`\r${ESC}[2K0/3 done · 0 passed · 0 faile`);
  });

  it('colours the counts when color is true', () => {
    const { chunks, stream } = collector();
    const reporter = createProgressReporter({
      stream,
      interactive: true,
      color: true,
      throttleMs: 0,
      tickMs: 0,
    });
    reporter.start(1);
    reporter.caseFinished(erroredCase('crash', 'boom'));
    reporter.finish(mixedRun().summary);
    expect(chunks.join('')).toContain(`${ESC}[33m1 errored${ESC}[39m`);
  });
});

describe('terminalCapabilities', () => {
  it('draws live with colours on a TTY, without colours under NO_COLOR, plainly elsewhere', () => {
    expect(terminalCapabilities({ isTTY: true }, {})).toEqual({ interactive: true, color: true });
    expect(terminalCapabilities({ isTTY: true }, { NO_COLOR: '1' })).toEqual({
      interactive: true,
      color: false,
    });
    expect(terminalCapabilities({ isTTY: true }, { NO_COLOR: '' })).toEqual({
      interactive: true,
      color: true,
    });
    expect(terminalCapabilities({ isTTY: true }, { TERM: 'dumb' })).toEqual({
      interactive: false,
      color: false,
    });
    expect(terminalCapabilities({}, {})).toEqual({ interactive: false, color: false });
  });
});

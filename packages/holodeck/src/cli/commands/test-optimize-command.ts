import path from 'node:path';
import type { Command } from 'commander';
import { UsageError } from '../../errors.js';
import type { CommandContext } from '../command-context.js';
import { ExitCode, type ExitCodeValue, exitCodesHelp } from '../exit-codes.js';
import type { Style } from '../terminal-style.js';
import { parseRecordingFlags } from './recording-options.js';
import { parseMaxCost } from './verdict-options.js';

/** The flags of `holodeck test optimize`, as commander parses them. */
export interface TestOptimizeOptions {
  maxCost?: string;
  maxTrials?: string;
  maxTime?: string;
  concurrency: string;
  resume?: string;
  replay?: string | boolean;
  recordMissing?: boolean;
}

function wholeNumber(flag: string, value: string, max: number): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1 || parsed > max)
    throw new UsageError(flag, `needs a whole number from 1 to ${max}, got "${value}"`);
  return parsed;
}

/** `--max-time 90s|20m|2h|<seconds>`. */
function parseMaxTime(value: string): number {
  const match = /^(\d+(?:\.\d+)?)\s*(s|m|h)?$/.exec(value.trim());
  const seconds = match
    ? Number(match[1]) * (match[2] === 'h' ? 3600 : match[2] === 'm' ? 60 : 1)
    : Number.NaN;
  if (!(seconds > 0))
    throw new UsageError(
      '--max-time',
      `needs a duration such as 90s, 20m or 2h (or seconds), got "${value}"`,
    );
  return seconds;
}

/**
 * `holodeck test optimize <agent.yaml>`: searches the axes of agent.yaml's `optimize:` block for
 * a better agent, judged on train cases with repeats and intervals and confirmed on holdout cases;
 * writes agent.optimized.yaml and a diff, never agent.yaml. Exit 0 when a winner was written and
 * the holdout agrees (or there is no holdout), 1 when nothing beat agent.yaml or the holdout does
 * not agree, 130 when interrupted (continue with --resume).
 */
export async function testOptimizeCommand(
  file: string,
  options: TestOptimizeOptions,
  style: Style,
  signal: AbortSignal,
): Promise<ExitCodeValue> {
  const concurrency = wholeNumber('--concurrency', options.concurrency, 64);
  const maxTrials =
    options.maxTrials !== undefined ? wholeNumber('--max-trials', options.maxTrials, 1000) : undefined;
  const maxCostUsd = options.maxCost !== undefined ? parseMaxCost(options.maxCost) : undefined;
  const maxTimeSeconds = options.maxTime !== undefined ? parseMaxTime(options.maxTime) : undefined;
  if (options.resume !== undefined && options.resume.trim() === '')
    throw new UsageError('--resume', 'needs an optimization id, or latest for the latest unfinished one');
  const recording = parseRecordingFlags({
    ...(options.replay !== undefined ? { replay: options.replay } : {}),
    ...(options.recordMissing ? { recordMissing: true } : {}),
  });
  const [{ loadAgent }, { optimizeAgent }, { optimizeProgress }, { renderOptimization }, report] =
    await Promise.all([
      import('../../load-agent.js'),
      import('../../optimize/optimize-agent.js'),
      import('../../optimize/optimize-progress.js'),
      import('../../optimize/render-optimization.js'),
      import('../../runner/report/index.js'),
    ]);
  const agent = await loadAgent(file);
  const notice = (message: string) => process.stderr.write(`${style.yellow('note')} ${message}\n`);
  const terminal = report.terminalCapabilities(process.stderr);
  const progress = optimizeProgress(process.stderr, { interactive: terminal.interactive, style });
  const outcome = await optimizeAgent(agent, {
    concurrency,
    ...(maxTrials !== undefined ? { maxTrials } : {}),
    ...(maxCostUsd !== undefined ? { maxCostUsd } : {}),
    ...(maxTimeSeconds !== undefined ? { maxTimeSeconds } : {}),
    ...(options.resume !== undefined
      ? { resume: options.resume === 'latest' ? (true as const) : options.resume }
      : {}),
    ...(recording.enabled
      ? { openRecorder: async () => (await recording.open(agent, notice)).recorder }
      : {}),
    replay: recording.enabled,
    signal,
    onEvent: progress.onEvent,
  }).finally(() => progress.finish());
  const stdoutStyle = createPlainStyle(style, report.terminalCapabilities(process.stdout).color);
  process.stdout.write(renderOptimization(outcome, stdoutStyle));
  if (outcome.optimized?.diff) {
    const { neutraliseTerminalText } = await import('../../chat/neutralise-terminal-text.js');
    process.stdout.write(`\n${neutraliseTerminalText(outcome.optimized.diff)}`);
  }
  if (outcome.finish.stopped === 'interrupted') {
    process.stderr.write(
      `${style.dim(`continue with: holodeck test optimize ${path.relative(process.cwd(), agent.file) || agent.file} --resume ${outcome.id}`)}\n`,
    );
    return ExitCode.interrupted;
  }
  if (!outcome.winner) return ExitCode.testsFailed;
  if (outcome.start.split.holdout.length === 0) return ExitCode.ok;
  return outcome.holdout?.agrees ? ExitCode.ok : ExitCode.testsFailed;
}

/** The stderr style's colours when stdout is a colour terminal too, else none. */
function createPlainStyle(style: Style, color: boolean) {
  const plain = (text: string) => text;
  return color ? style : { red: plain, green: plain, yellow: plain, dim: plain, bold: plain };
}

/** Adds `optimize` under `holodeck test`. */
export function registerTestOptimizeCommand(test: Command, context: CommandContext) {
  test
    .command('optimize')
    .description(
      "search what agent.yaml's optimize: block allows (instructions from a proposer model, temperature, max_turns, model, tool descriptions) for an agent that passes more cases: judged on train cases with repeats and intervals, confirmed on holdout cases; writes agent.optimized.yaml and a diff, never agent.yaml",
    )
    .argument('<file>', 'path to agent.yaml')
    .option('--max-trials <n>', 'most candidates to try (default: optimize.max_trials, else 10)')
    .option(
      '--max-cost <usd>',
      'stop once the search has spent this many US dollars (default: optimize.max_cost)',
    )
    .option('--max-time <duration>', 'stop after this long, e.g. 90s, 20m, 2h (default: optimize.max_time)')
    .option('-c, --concurrency <n>', 'agent runs at a time', '4')
    .option(
      '--resume <id>',
      'continue a stopped optimization: its id, or latest for the latest unfinished one',
    )
    .option(
      '--replay [dir]',
      'answer every request from the recordings of `holodeck test --record` (default .holodeck/recordings/); a candidate whose requests have no recording is rejected as unrecorded, never run live',
    )
    .option(
      '--record-missing',
      'with --replay: record live (needs the key) only the requests with no recording',
      false,
    )
    .addHelpText('after', exitCodesHelp())
    // -c, --max-cost, --resume, --replay and --record-missing are also options of `test`, which
    // commander gives the parent: read both levels.
    .action((file: string, _options: TestOptimizeOptions, command: Command) =>
      context.run(
        testOptimizeCommand(
          file,
          command.optsWithGlobals<TestOptimizeOptions>(),
          context.style,
          context.interruptible('stopping the running trial; continue later with --resume'),
        ),
      ),
    );
}

import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import { UsageError } from '../../errors.js';
import type { CommandContext } from '../command-context.js';
import { ExitCode, type ExitCodeValue, exitCodesHelp } from '../exit-codes.js';
import type { Style } from '../terminal-style.js';

export interface JudgeCalibrateOptions {
  metric?: string;
  samples: string;
  concurrency: string;
  output?: string;
  save: boolean;
}

function wholeNumber(flag: string, value: string, max: number): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1 || parsed > max)
    throw new UsageError(flag, `needs a whole number from 1 to ${max}, got "${value}"`);
  return parsed;
}

/**
 * `holodeck judge calibrate <agent.yaml> [--metric NAME]`: judges each labelled example of the
 * judge metrics (their `calibration:` files) `--samples` times, prints agreement, kappa, the
 * confusion matrix, error rates and self-consistency, and saves the calibration under
 * `.holodeck/calibrations/` (what `holodeck test` checks `min_kappa` against). Exit 1 when a
 * metric's kappa is below its min_kappa.
 */
export async function judgeCalibrateCommand(
  file: string,
  options: JudgeCalibrateOptions,
  style: Style,
  signal: AbortSignal,
): Promise<ExitCodeValue> {
  const samples = wholeNumber('--samples', options.samples, 20);
  const concurrency = wholeNumber('--concurrency', options.concurrency, 64);
  if (options.output !== undefined && options.output !== '-' && !options.output.endsWith('.json'))
    throw new UsageError('--output', `writes a JSON report: give a .json file or -, got "${options.output}"`);
  const [{ loadAgent }, { runCalibration }, store, { renderCalibration }, { judgeClientFor }, report] =
    await Promise.all([
      import('../../load-agent.js'),
      import('../../runner/calibration/run-calibration.js'),
      import('../../runner/calibration/calibration-store.js'),
      import('../../runner/calibration/render-calibration.js'),
      import('../../evals/judge/index.js'),
      import('../../runner/report/index.js'),
    ]);
  const agent = await loadAgent(file);
  const note = (message: string) => process.stderr.write(`${style.yellow('note')} ${message}\n`);
  const judgeModel = agent.config.evaluations?.model;
  const judge = judgeClientFor(judgeModel ?? agent.config.model, {
    env: agent.env,
    cacheDir: path.join(agent.directory, '.holodeck', 'cache', 'judge'),
    onWarning: note,
    settingsPath: judgeModel ? 'evaluations.model' : 'model',
    samplingTemperature: judgeModel?.temperature,
  });
  const calibration = await runCalibration(agent, {
    judge,
    metric: options.metric,
    samples,
    concurrency,
    signal,
    onMetricStarted: (metric, examples) =>
      process.stderr.write(
        `${style.dim(`calibrating "${metric}": ${examples} examples × ${samples} judgement${samples === 1 ? '' : 's'}`)}\n`,
      ),
  });
  const terminal = report.terminalCapabilities(process.stdout);
  const json = `${JSON.stringify(calibration, null, 2)}\n`;
  const summary = options.output === '-' ? process.stderr : process.stdout;
  summary.write(renderCalibration(calibration, { color: terminal.color }));
  if (options.output === '-') process.stdout.write(json);
  else if (options.output !== undefined) {
    await writeFile(path.resolve(options.output), json);
    process.stderr.write(`${style.dim(`json report written to ${options.output}`)}\n`);
  }
  if (options.save) {
    const saved = await store.saveCalibration(calibration, store.calibrationsDirectory(agent.directory));
    process.stderr.write(
      `${style.dim(`calibration saved: ${path.relative(process.cwd(), saved) || saved} (id ${calibration.calibration_id}${calibration.interrupted ? ', interrupted' : ''})`)}\n`,
    );
  }
  if (calibration.interrupted) return ExitCode.interrupted;
  const below = calibration.metrics.some(
    (metric) =>
      metric.min_kappa !== undefined &&
      (metric.kappa.estimate === null || metric.kappa.estimate < metric.min_kappa),
  );
  return below ? ExitCode.testsFailed : ExitCode.ok;
}

export function registerJudgeCommand(program: Command, context: CommandContext) {
  const judge = program
    .command('judge')
    .description('check the judge metrics against human labels (calibrate)');
  judge
    .command('calibrate')
    .description(
      "judge the labelled examples of each judge metric's calibration file and report agreement, Cohen's kappa with its interval, the confusion matrix, false-pass and false-fail rates and self-consistency; saved under .holodeck/calibrations/",
    )
    .argument('<file>', 'path to agent.yaml')
    .option('--metric <name>', 'only this judge metric (its name, else its type)')
    .option('--samples <n>', 'judgements per example, to see how often the verdict flips (1 to 20)', '3')
    .option('-c, --concurrency <n>', 'examples judged at a time', '4')
    .option('-o, --output <file>', 'also write the calibration as JSON (a .json file, or - for stdout)')
    .option('--no-save', 'do not save this calibration under .holodeck/calibrations/')
    .addHelpText('after', exitCodesHelp())
    .action((file: string, options: JudgeCalibrateOptions) =>
      context.run(
        judgeCalibrateCommand(
          file,
          options,
          context.style,
          context.interruptible('finishing the examples being judged, then reporting'),
        ),
      ),
    );
}

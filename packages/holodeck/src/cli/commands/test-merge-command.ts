import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import { UsageError } from '../../errors.js';
import { RunReportError } from '../../runner/report/run-report-error.js';
import type { CommandContext } from '../command-context.js';
import { ExitCode, type ExitCodeValue } from '../exit-codes.js';
import type { Style } from '../terminal-style.js';

/** Options of `holodeck test merge`. */
export interface TestMergeOptions {
  output?: string;
  saveTo?: string;
}

/**
 * `holodeck test merge <files…>`: combines the JSON runs of a sharded suite into one run (same
 * agent and suite hashes, no case twice, none missing), written to `-o` (else stdout) and, with
 * `--save-to <agent.yaml>`, saved among that agent's runs for the gate, the viewer and --baseline.
 */
export async function testMergeCommand(
  files: string[],
  options: TestMergeOptions,
  style: Style,
): Promise<ExitCodeValue> {
  const [{ parseRunReport }, { mergeRuns }, { writeJsonReport }, { saveRun, runsDirectory }] =
    await Promise.all([
      import('../../runner/report/run-report-schema.js'),
      import('../../runner/report/merge-runs.js'),
      import('../../runner/report/write-json-report.js'),
      import('../../runner/report/run-store.js'),
    ]);
  const runs = await Promise.all(
    files.map(async (file) => {
      const text = await readFile(path.resolve(file), 'utf8').catch((error: unknown) => {
        const missing = error instanceof Error && 'code' in error && error.code === 'ENOENT';
        throw new RunReportError(
          file,
          `Cannot read run file ${file}: ${missing ? 'the file does not exist' : String(error)}.`,
        );
      });
      return parseRunReport(text, file);
    }),
  );
  const id = `${new Date().toISOString().replace(/[:.]/g, '-')}-merged`;
  const merged = mergeRuns(runs, files, id);
  const text = writeJsonReport(merged);
  if (options.output) await writeFile(path.resolve(options.output), text);
  else process.stdout.write(text);
  if (options.saveTo) {
    const saved = await saveRun(merged, runsDirectory(path.dirname(path.resolve(options.saveTo))));
    process.stderr.write(
      `${style.dim(`run saved: ${path.relative(process.cwd(), saved) || saved} (id ${merged.run_id})`)}\n`,
    );
  }
  const { summary } = merged;
  process.stderr.write(
    `${style.dim(`merged ${runs.length} runs: ${summary.total} cases, ${summary.passed} passed, ${summary.failed} failed, ${summary.errored} errored`)}\n`,
  );
  return summary.passed === summary.total ? ExitCode.ok : ExitCode.testsFailed;
}

/** Adds `merge` under `holodeck test`. */
export function registerTestMergeCommand(test: Command, context: CommandContext) {
  test
    .command('merge')
    .description('combine the JSON runs of a sharded suite (--shard k/n) into one run')
    .argument('<files...>', "each shard's JSON run file (-o report.json, or .holodeck/runs/<id>.json)")
    .option('-o, --output <file>', 'write the merged run here (default: stdout)')
    .option('--save-to <agent.yaml>', "also save it among this agent's runs (.holodeck/runs/)")
    // `-o` is also an option of `test` itself, which commander gives it: read both levels.
    // `test`'s `-o` is repeatable (a list); merge writes one file, so one `-o` is allowed.
    .action((files: string[], options: TestMergeOptions, command: Command) => {
      const given: unknown = command.optsWithGlobals().output;
      const outputs = (Array.isArray(given) ? given : [given]).filter(
        (value): value is string => typeof value === 'string',
      );
      const output = outputs[0];
      context.run(
        outputs.length > 1
          ? Promise.reject(
              new UsageError('-o', `test merge writes one merged run; got ${outputs.length} -o options`),
            )
          : testMergeCommand(files, { ...options, ...(output ? { output } : {}) }, context.style),
      );
    });
}

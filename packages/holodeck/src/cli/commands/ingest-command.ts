import type { Command } from 'commander';
import { AgentSessionError } from '../../errors.js';
import { EmbeddingsRequestError } from '../../tools/retrieval/embed/embeddings-client.js';
import type { IngestEvent } from '../../tools/retrieval/ingest/ingest-collection.js';
import type { CommandContext } from '../command-context.js';
import { ExitCode, type ExitCodeValue } from '../exit-codes.js';
import type { Style } from '../terminal-style.js';

export interface IngestOptions {
  force: boolean;
  /** Where the summary lines go: stdout for `holodeck ingest`, stderr before a chat or test run. */
  summary?: NodeJS.WritableStream;
}

/** What `holodeck ingest` exits with (also in its --help). */
export const INGEST_EXIT_CODES_HELP = `
Exit codes of ingest:
  0  every index is up to date
  2  configuration or credential error (no source, a database that cannot be opened or reached, missing or rejected API key, wrong vector size)
  3  the embeddings API or the database failed during ingestion
  5  some files could not be parsed (named above); the others were indexed`;

/** Progress: a line rewritten in place on a terminal, a plain line per indexed file otherwise. */
function progressPrinter(style: Style, tty: boolean) {
  let open = false;
  const clear = () => {
    if (open) process.stderr.write('\r\x1b[2K');
    open = false;
  };
  return {
    event(event: IngestEvent) {
      if (event.type === 'note') {
        clear();
        process.stderr.write(`${style.yellow('note')} ${event.message}\n`);
        return;
      }
      if (tty) {
        clear();
        process.stderr.write(`${style.dim(`${event.tool} ${event.done}/${event.total}`)} ${event.file}`);
        open = true;
      } else if (event.status !== 'unchanged') {
        process.stderr.write(`${event.tool}: ${event.status} ${event.file} (${event.done}/${event.total})\n`);
      }
    },
    clear,
  };
}

/**
 * `holodeck ingest <file>`: builds or refreshes the index of every retrieval tool (incremental by
 * content hash; `--force` rebuilds). Files that fail to parse are named with the reason.
 */
export async function ingestCommand(
  file: string,
  options: IngestOptions,
  style: Style,
  signal: AbortSignal,
): Promise<ExitCodeValue> {
  const [{ loadAgent }, { ingestAgent }, { describeIngestProblems, describeIngestSummary }] =
    await Promise.all([
      import('../../load-agent.js'),
      import('../../tools/retrieval/ingest-agent.js'),
      import('../../tools/retrieval/describe-ingest-report.js'),
    ]);
  const agent = await loadAgent(file);
  const progress = progressPrinter(style, process.stderr.isTTY === true);
  let reports: Awaited<ReturnType<typeof ingestAgent>>;
  try {
    reports = await ingestAgent(agent, {
      force: options.force,
      onEvent: (event) => progress.event(event),
      signal,
    });
  } catch (error) {
    progress.clear();
    if (signal.aborted) return ExitCode.interrupted;
    // The embeddings API (EmbeddingsRequestError) or the index's database (IndexDatabaseError)
    // failed mid-ingest: both are failures of the run, exit 3.
    // Rejected credentials are a configuration problem, as everywhere else (exit 2).
    if (error instanceof EmbeddingsRequestError && (error.status === 401 || error.status === 403)) {
      process.stderr.write(`${style.red('error')} ${error.message}\n`);
      return ExitCode.configuration;
    }
    if (error instanceof AgentSessionError) {
      process.stderr.write(`${style.red('error')} ${error.message}\n`);
      return ExitCode.execution;
    }
    throw error;
  }
  progress.clear();
  if (!reports.length) {
    process.stderr.write(`${file} has no vectorstore or hierarchical_document tool: nothing to ingest\n`);
    return ExitCode.ok;
  }
  let failed = false;
  for (const report of reports) {
    for (const line of describeIngestProblems(report))
      process.stderr.write(`${style.yellow('warning')} ${line}\n`);
    const partial = report.failures.length > 0;
    failed ||= partial;
    (options.summary ?? process.stdout).write(
      `${partial ? style.yellow('!') : style.green('✓')} ${describeIngestSummary(report)}\n`,
    );
  }
  return failed ? ExitCode.ingestIncomplete : ExitCode.ok;
}

/**
 * `chat --force-ingest` and `test --force-ingest`: rebuilds the indexes before the run starts
 * (the backend's own start-up ingest then finds nothing to do). Its summary goes to stderr, so
 * `chat --json` still prints only JSON. Problems stop the command; files that failed to parse
 * were named and do not.
 */
export async function forceIngestBeforeRun(file: string, style: Style, signal: AbortSignal): Promise<void> {
  const code = await ingestCommand(file, { force: true, summary: process.stderr }, style, signal);
  if (code === ExitCode.interrupted) throw signal.reason;
  if (code === ExitCode.execution)
    throw new AgentSessionError('the indexes could not be rebuilt (see above)');
}

export function registerIngestCommand(program: Command, context: CommandContext) {
  program
    .command('ingest')
    .description('build or refresh the indexes of the retrieval tools (vectorstore, hierarchical_document)')
    .argument('<file>', 'path to agent.yaml')
    .option('--force', 'rebuild every index: parse, chunk and embed every file again', false)
    .addHelpText('after', INGEST_EXIT_CODES_HELP)
    .action((file: string, options: IngestOptions) =>
      context.run(
        ingestCommand(file, options, context.style, context.interruptible('stopping the ingestion')),
      ),
    );
}

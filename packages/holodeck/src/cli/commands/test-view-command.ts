import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import { UsageError } from '../../errors.js';
import type { CommandContext } from '../command-context.js';
import { ExitCode, type ExitCodeValue } from '../exit-codes.js';
import type { Style } from '../terminal-style.js';

export interface TestViewCommandOptions {
  port?: string;
  host?: string;
  allowRemote: boolean;
  writable: boolean;
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || !Number.isInteger(port) || port > 65_535)
    throw new UsageError(
      '--port',
      `needs a whole number from 0 to 65535, got "${value}"`,
      'leave it out for a free port',
    );
  return port;
}

/** The agent's folder: agent.yaml's, or the folder itself when one is given. */
async function agentFolder(file: string): Promise<string> {
  const target = path.resolve(file);
  const info = await stat(target).catch(() => undefined);
  if (!info)
    throw new UsageError(
      '<agent.yaml>',
      `${file} does not exist`,
      'pass the agent.yaml whose runs to show (they are saved in its folder under .holodeck/runs/)',
    );
  return info.isDirectory() ? target : path.dirname(target);
}

/** The agent whose labels files --writable writes: agent.yaml, or the folder's agent.yaml. */
async function labelWriter(file: string | undefined, folder: string) {
  const target =
    file !== undefined && !(await stat(path.resolve(file))).isDirectory()
      ? path.resolve(file)
      : path.join(folder, 'agent.yaml');
  const [{ loadAgent }, redact] = await Promise.all([
    import('../../load-agent.js'),
    import('../../runner/report/redact-agent-config.js'),
  ]);
  const agent = await loadAgent(target);
  return { agent, secrets: redact.credentialValues({ ...process.env, ...agent.env }) };
}

/**
 * `holodeck test view [agent.yaml]`: serves the pages of the agent's saved runs until SIGINT or
 * SIGTERM, then stops listening and exits 0 (ending it so is how a server is used).
 */
export async function testViewCommand(
  file: string | undefined,
  options: TestViewCommandOptions,
  style: Style,
  signal: AbortSignal,
): Promise<ExitCodeValue> {
  const port = options.port !== undefined ? parsePort(options.port) : 0;
  const folder = await agentFolder(file ?? 'agent.yaml');
  const [{ serveView }, { runsDirectory }] = await Promise.all([
    import('../../view/serve-view.js'),
    import('../../runner/report/run-store.js'),
  ]);
  const runsDir = runsDirectory(folder);
  const labels = options.writable ? await labelWriter(file, folder) : undefined;
  const server = await serveView({
    ...(labels ? { labels } : {}),
    runsDir,
    port,
    ...(options.host !== undefined ? { host: options.host } : {}),
    allowRemote: options.allowRemote,
    onWarning: (message) => process.stderr.write(`${style.yellow('warning')} ${message}\n`),
  });
  process.stderr.write(
    `${style.dim(`showing the runs in ${path.relative(process.cwd(), runsDir) || runsDir}; Ctrl+C stops`)}\n`,
  );
  process.stdout.write(`holodeck test view: ${server.url}\n`);
  await new Promise<void>((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await server.close();
  return ExitCode.ok;
}

/** Adds `view` under `holodeck test`. */
export function registerTestViewCommand(test: Command, context: CommandContext) {
  test
    .command('view')
    .description('serve a local web page of the saved runs of an agent (runs, cases, attempts, compare)')
    .argument('[agent.yaml]', 'the agent whose runs to show, or its folder (default: ./agent.yaml)')
    .option('--port <n>', 'port to listen on (default: a free one)')
    .option(
      '--host <address>',
      'address to listen on (default 127.0.0.1); a non-local one needs --allow-remote',
    )
    .option('--allow-remote', 'allow a --host that other machines can reach (no authentication!)', false)
    .option(
      '--writable',
      "let the case page write pass/fail labels into judge metrics' calibration: files (loopback only; default read-only)",
      false,
    )
    .action((file: string | undefined, options: TestViewCommandOptions) =>
      context.run(
        testViewCommand(file, options, context.style, context.interruptible('stopping the view server')),
      ),
    );
}

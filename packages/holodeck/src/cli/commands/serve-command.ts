import type { Command } from 'commander';
import { UsageError } from '../../errors.js';
import type { CommandContext } from '../command-context.js';
import { ExitCode, type ExitCodeValue } from '../exit-codes.js';
import type { Style } from '../terminal-style.js';

/** The flags of `holodeck serve`, as commander parses them. */
export interface ServeCommandOptions {
  port: string;
  host?: string;
  allowRemote: boolean;
  keys?: string;
  protocols?: string;
  drainTimeout: string;
  instanceId?: string;
  logContent: boolean;
}

function integerFlag(flag: string, text: string, min: number, max: number): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < min || value > max)
    throw new UsageError(
      flag,
      `"${text}" is not a whole number from ${min} to ${max}`,
      `e.g. ${flag} ${Math.max(min, 1)}`,
    );
  return value;
}

/**
 * `holodeck serve <file>`: serves the agent until SIGTERM or Ctrl+C, which drain the running
 * turns (at most --drain-timeout seconds), end every agent process, and exit 0.
 */
export async function serveCommand(
  file: string,
  options: ServeCommandOptions,
  style: Style,
  signal: AbortSignal,
): Promise<ExitCodeValue> {
  const port = integerFlag('--port', options.port, 0, 65_535);
  const drainSeconds = integerFlag('--drain-timeout', options.drainTimeout, 0, 3600);
  const { startAgentServer } = await import('../../serve/start-agent-server.js');
  const { parseProtocols } = await import('../../serve/resolve-serve-settings.js');
  const server = await startAgentServer({
    agentFile: file,
    port,
    ...(options.host ? { host: options.host } : {}),
    allowRemote: options.allowRemote,
    ...(options.keys ? { keysFile: options.keys } : {}),
    ...(options.protocols ? { protocols: parseProtocols(options.protocols) } : {}),
    ...(options.instanceId ? { instanceId: options.instanceId } : {}),
    logContent: options.logContent,
    onMessage: (message) =>
      process.stderr.write(
        `${message.startsWith('warning ') ? `${style.yellow('warning')}${message.slice(7)}` : message}\n`,
      ),
  });
  const { settings } = server;
  process.stderr.write(
    `${style.green('serving')} ${file} at ${server.url} (instance ${server.instanceId}; ${[...settings.protocols].join(', ')}; at most ${settings.maxSessions} sessions, from ${settings.maxSessionsSource})\n`,
  );
  if (!signal.aborted)
    await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
  await server.shutdown(drainSeconds * 1000);
  process.stderr.write(`${style.dim('stopped: every session ended')}\n`);
  return ExitCode.ok;
}

/** `holodeck serve keys create --keys FILE`: prints the new key once; the file keeps its hash. */
export async function createKeyCommand(options: { keys: string; name?: string }): Promise<ExitCodeValue> {
  const { createApiKey } = await import('../../serve/api-keys.js');
  const created = createApiKey(options.keys, options.name);
  process.stdout.write(`${created.key}\n`);
  process.stderr.write(
    `key "${created.id}" added to ${options.keys} (its SHA-256 only): the key above is shown once, store it now\n`,
  );
  return ExitCode.ok;
}

export function registerServeCommand(program: Command, context: CommandContext) {
  const serve = program
    .command('serve')
    .description('serve the agent: REST, OpenAI Responses, AG-UI, MCP and A2A on one port')
    .argument('<file>', 'path to agent.yaml')
    .option('--port <port>', 'port to listen on (0: a free one)', '8000')
    .option(
      '--host <host>',
      'address to listen on (default 127.0.0.1; others need --allow-remote and API keys)',
    )
    .option('--allow-remote', 'allow a --host that is not a loopback address', false)
    .option('--keys <file>', `API keys file (holodeck serve keys create); also HOLODECK_SERVE_API_KEYS`)
    .option(
      '--protocols <list>',
      'comma-separated: rest, responses, ag-ui, mcp, a2a (default serve.protocols, else all)',
    )
    .option(
      '--drain-timeout <seconds>',
      'on SIGTERM, how long running turns may finish before they are interrupted',
      '30',
    )
    .option('--instance-id <name>', 'this instance in session ids (default: host name and port)')
    .option('--log-content', 'put user messages in the request log (off: never message text)', false)
    .action((file: string, options: ServeCommandOptions) =>
      context.run(
        serveCommand(file, options, context.style, context.interruptible('draining the running turns')),
      ),
    );
  serve
    .command('keys')
    .description('manage the API keys file')
    .command('create')
    .description('create an API key: printed once on stdout, its hash added to the keys file')
    .option('--keys <file>', 'the keys file (created with mode 0600 if missing)')
    .option('--name <name>', 'the key name (owner of its sessions; default key-<n>)')
    .action((options: { keys?: string; name?: string }) => {
      // `serve` has a --keys of its own, which commander hands to it: read it from there too.
      const keys = options.keys ?? serve.opts<{ keys?: string }>().keys;
      if (keys === undefined)
        throw new UsageError(
          '--keys',
          'names no keys file',
          'holodeck serve keys create --keys serve-keys.json',
        );
      context.run(createKeyCommand({ keys, ...(options.name ? { name: options.name } : {}) }));
    });
}

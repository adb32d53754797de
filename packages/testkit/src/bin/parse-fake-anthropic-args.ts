import { parseArgs } from 'node:util';
import { errorMessage } from '../support.js';

/** Usage text of the `fake-anthropic` bin. */
export const FAKE_ANTHROPIC_USAGE = `Usage: fake-anthropic [--port N] [--reply TEXT]... [--latency-ms N] [--verbose]

Starts a fake Anthropic Messages API on 127.0.0.1 and prints
ANTHROPIC_BASE_URL=http://127.0.0.1:PORT as the first line of stdout.
Each agent-loop request is answered with the next --reply; the last one repeats forever.

  --port N         port to listen on (default 0: a free port)
  --reply TEXT     an assistant reply; repeat for several turns (default "Hello from fake-anthropic.")
  --latency-ms N   delay every agent-loop answer by N milliseconds (default 0)
  --verbose        log every request to stderr
  --help           show this text`;

/** Parsed command line of the `fake-anthropic` bin. */
export type FakeAnthropicArgs =
  | { command: 'help' }
  | { command: 'serve'; port: number; replies: string[]; latencyMs: number; verbose: boolean };

/** A command-line mistake; the message says what to fix. */
export class UsageError extends Error {
  override name = 'UsageError';
}

function nonNegativeInteger(flag: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value))
    throw new UsageError(`${flag} expects a whole number >= 0, got ${JSON.stringify(value)}`);
  return Number(value);
}

/** Parses the bin's arguments (without `node` and the script path). */
export function parseFakeAnthropicArgs(argv: readonly string[]): FakeAnthropicArgs {
  let values: ReturnType<typeof parse>['values'];
  try {
    values = parse(argv).values;
  } catch (error) {
    throw new UsageError(errorMessage(error));
  }
  if (values.help === true) return { command: 'help' };
  const port = nonNegativeInteger('--port', values.port, 0);
  if (port > 65_535) throw new UsageError(`--port must be at most 65535, got ${port}`);
  return {
    command: 'serve',
    port,
    replies: values.reply ?? ['Hello from fake-anthropic.'],
    latencyMs: nonNegativeInteger('--latency-ms', values['latency-ms'], 0),
    verbose: values.verbose === true,
  };
}

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    strict: true,
    allowPositionals: false,
    options: {
      port: { type: 'string' },
      reply: { type: 'string', multiple: true },
      'latency-ms': { type: 'string' },
      verbose: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}

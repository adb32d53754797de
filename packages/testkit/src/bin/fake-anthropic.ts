#!/usr/bin/env node
// `fake-anthropic`: the fake Messages API as a process, for demos and benchmarks.
import { startFakeAnthropic } from '../fake-anthropic-server.js';
import { reply } from '../script/step-builders.js';
import { errorMessage } from '../support.js';
import { FAKE_ANTHROPIC_USAGE, parseFakeAnthropicArgs, UsageError } from './parse-fake-anthropic-args.js';

async function main(): Promise<number> {
  const args = parseFakeAnthropicArgs(process.argv.slice(2));
  if (args.command === 'help') {
    process.stdout.write(`${FAKE_ANTHROPIC_USAGE}\n`);
    return 0;
  }
  const server = await startFakeAnthropic({
    port: args.port,
    latencyMs: args.latencyMs,
    steps: args.replies.map((text) => reply(text)),
    repeatLast: true,
    onRequest: args.verbose
      ? (request) =>
          process.stderr.write(
            `fake-anthropic: #${request.sequence} ${request.method} ${request.path}${request.query} ${request.kind} (${request.reason})\n`,
          )
      : undefined,
  });
  process.stdout.write(`ANTHROPIC_BASE_URL=${server.url}\n`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await server.close();
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof UsageError) {
      process.stderr.write(`fake-anthropic: ${error.message}\n\n${FAKE_ANTHROPIC_USAGE}\n`);
      process.exitCode = 2;
      return;
    }
    process.stderr.write(`fake-anthropic: ${errorMessage(error)}\n`);
    process.exitCode = 1;
  },
);

import { type Options, query, type SDKMessage, type SDKResultMessage } from '@anthropic-ai/claude-agent-sdk';
import type { FakeAnthropicServer } from '../../src/index.js';
import { fakeCliEnv } from '../../src/index.js';

/** What one `query()` run of the real CLI produced. */
export interface CliRun {
  messages: SDKMessage[];
  result: SDKResultMessage | undefined;
  /** The error `query()` threw, if any (the SDK throws after an error result). */
  error: Error | undefined;
  durationMs: number;
}

/** Options every e2e run uses: least privilege, no settings, no thinking, no session files. */
export function baseOptions(
  server: FakeAnthropicServer,
  home: string,
  env: Record<string, string> = {},
): Options {
  return {
    env: fakeCliEnv({ baseUrl: server.url, home, extra: env }),
    cwd: home,
    model: 'claude-sonnet-4-5',
    tools: [],
    settingSources: [],
    thinking: { type: 'disabled' },
    persistSession: false,
  };
}

/** Runs the real Claude Code CLI through the SDK and collects everything it yields. */
export async function runCliQuery(prompt: string, options: Options): Promise<CliRun> {
  const started = Date.now();
  const messages: SDKMessage[] = [];
  let error: Error | undefined;
  try {
    for await (const message of query({ prompt, options })) messages.push(message);
  } catch (thrown) {
    error = thrown instanceof Error ? thrown : new Error(String(thrown));
  }
  const result = messages.findLast((message): message is SDKResultMessage => message.type === 'result');
  return { messages, result, error, durationMs: Date.now() - started };
}

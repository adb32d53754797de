import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { backendVariants } from '../both-backends/backend-variants.js';
import { runHolodeckCli } from '../support/run-holodeck-cli.js';

// `holodeck chat --record/--replay`: a chat is captured and replayed with no network, so a chat
// bug can be reproduced; one-shot and a conversation on piped input (a turn per line).

const ORDERS = `export const lookupOrder = ({ order_id }) => ({ order_id, status: 'shipped' });`;
const LOOKUP = {
  type: 'function',
  name: 'lookup_order',
  description: 'lookup_order of the shop',
  file: 'orders.mjs',
  function: 'lookupOrder',
  parameters: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] },
};

describe.each(backendVariants())('holodeck chat recorded on the $name backend', (variant) => {
  beforeAll(() => variant.start());
  afterEach(() => variant.discardScript());
  afterAll(() => variant.close());

  it('chat -p --record, then --replay with the model gone: the same answer and tool call', async () => {
    variant.script(
      variant.respond((request) =>
        request.toolResults.length
          ? {
              kind: 'reply',
              text: `It has ${request.toolResults[0]?.text.includes('shipped') ? 'shipped' : '?'}.`,
            }
          : { kind: 'tool', name: 'lookup_order', args: { order_id: 'A-1' } },
      ),
      variant.respond(() => ({ kind: 'reply', text: 'It has shipped.' })),
    );
    const agent = variant.agent({ tools: [LOOKUP] }, { 'orders.mjs': ORDERS });
    const args = ['chat', agent.file, '-p', 'Where is A-1?', '--json'];
    const live = await runHolodeckCli([...args, '--record'], agent.env);
    expect(live.code, live.stderr).toBe(0);
    expect(readdirSync(path.join(agent.directory, '.holodeck', 'recordings'))).toEqual([
      expect.stringMatching(/^chat\.[0-9a-f]{8}\.json$/),
    ]);
    await variant.close();
    const replayed = await runHolodeckCli([...args, '--replay'], agent.env);
    await variant.start();
    expect(replayed.code, replayed.stderr).toBe(0);
    const pick = (text: string) => {
      const result = JSON.parse(text);
      return {
        response: result.response,
        tools: result.tool_calls.map((call: { arguments: unknown }) => call.arguments),
      };
    };
    expect(pick(replayed.stdout)).toEqual(pick(live.stdout));
    expect(pick(live.stdout)).toEqual({ response: 'It has shipped.', tools: [{ order_id: 'A-1' }] });
  });

  it('a conversation on piped input replays turn by turn; a changed turn names its turn', async () => {
    variant.script(
      ...Array.from({ length: 6 }, () =>
        variant.respond((request) => ({ kind: 'reply', text: `you said: ${request.lastUserText}` })),
      ),
    );
    const agent = variant.agent();
    const live = await runHolodeckCli(['chat', agent.file, '--record'], agent.env, 'first\nsecond\n');
    expect(live.code, live.stderr).toBe(0);
    expect(live.stdout).toContain('you said: second');
    await variant.close();
    const replayed = await runHolodeckCli(['chat', agent.file, '--replay'], agent.env, 'first\nsecond\n');
    const changed = await runHolodeckCli(['chat', agent.file, '--replay'], agent.env, 'first\nthird\n');
    await variant.start();
    expect(replayed.code, replayed.stderr).toBe(0);
    expect(replayed.stdout).toBe(live.stdout);
    // The CLI may make other requests first in a turn: the message counts them all.
    expect(changed.stdout + changed.stderr).toMatch(
      /no recording for chat attempt 1 turn 2 request \d+: differs from the nearest recording at messages\[[23]\]\.content(\[0\]\.text)?: "third" vs "second"/,
    );
    expect(changed.code).toBe(3);
  });
});

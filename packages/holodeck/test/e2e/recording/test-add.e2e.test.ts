import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { backendVariants, type ModelAnswer, type SeenRequest } from '../both-backends/backend-variants.js';
import { runHolodeckCli } from '../support/run-holodeck-cli.js';

// `holodeck test add --from-run` / `--from-session`: a run's case, or a saved chat session, becomes
// a new test case in agent.yaml (comments kept, validate passes), with its recording, so it
// replays at once.

const ORDERS = `export const lookupOrder = ({ order_id }) => ({ order_id, status: 'shipped' });`;
const LOOKUP = {
  type: 'function',
  name: 'lookup_order',
  description: 'lookup_order of the shop',
  file: 'orders.mjs',
  function: 'lookupOrder',
  parameters: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] },
};

function model(request: SeenRequest): ModelAnswer {
  if (request.toolResults.length) return { kind: 'reply', text: 'Your order has shipped.' };
  return { kind: 'tool', name: 'lookup_order', args: { order_id: 'A-7' } };
}

describe.each(backendVariants())('holodeck test add on the $name backend', (variant) => {
  beforeAll(() => variant.start());
  afterEach(() => variant.discardScript());
  afterAll(() => variant.close());

  it('adds the case with its tools and answer, keeps comments, validates, and replays at once', async () => {
    variant.script(...Array.from({ length: 6 }, () => variant.respond(model)));
    const agent = variant.agent(
      { tools: [LOOKUP], test_cases: [{ name: 'where', input: 'Where is A-7?' }] },
      { 'orders.mjs': ORDERS },
    );
    writeFileSync(agent.file, `# The shop agent: keep this comment\n${readFileSync(agent.file, 'utf8')}`);
    expect((await runHolodeckCli(['test', agent.file, '--record'], agent.env)).code).toBe(0);
    const added = await runHolodeckCli(
      [
        'test',
        'add',
        agent.file,
        '--from-run',
        'latest',
        '--case',
        'where',
        '--name',
        'where-again',
        '--with-args',
      ],
      agent.env,
    );
    expect(added.code, added.stderr).toBe(0);
    expect(added.stderr).toContain('added case "where-again"');
    const text = readFileSync(agent.file, 'utf8');
    expect(text.startsWith('# The shop agent: keep this comment\n')).toBe(true);
    const cases = parse(text).test_cases;
    expect(cases[1]).toEqual({
      name: 'where-again',
      input: 'Where is A-7?',
      expected_tools: [{ name: 'lookup_order', args: { order_id: 'A-7' } }],
      ground_truth: 'Your order has shipped.',
    });
    expect((await runHolodeckCli(['validate', agent.file], agent.env)).code).toBe(0);
    await variant.close();
    const replayed = await runHolodeckCli(
      ['test', agent.file, '--replay', '--filter', 'where-again', '--no-save'],
      agent.env,
    );
    await variant.start();
    expect(replayed.code, replayed.stdout + replayed.stderr).toBe(0);
    expect(replayed.stderr).toContain('no request went to the network');
  });

  it('--as-counterexample turns the answer into a not-contains check; a missing case is exit 2', async () => {
    variant.script(...Array.from({ length: 6 }, () => variant.respond(model)));
    const agent = variant.agent(
      { tools: [LOOKUP], test_cases: [{ name: 'where', input: 'Where is A-7?' }] },
      { 'orders.mjs': ORDERS },
    );
    expect((await runHolodeckCli(['test', agent.file], agent.env)).code).toBe(0);
    const added = await runHolodeckCli(
      ['test', 'add', agent.file, '--from-run', 'latest', '--case', 'where', '--as-counterexample'],
      agent.env,
    );
    expect(added.code, added.stderr).toBe(0);
    const [, counter] = parse(readFileSync(agent.file, 'utf8')).test_cases;
    expect(counter.metrics).toEqual([{ type: 'not-contains', value: 'Your order has shipped.' }]);
    expect(counter.expected_tools).toEqual(['lookup_order']);
    expect(counter.name).toMatch(/^where \(from run .+\)$/);
    const missing = await runHolodeckCli(
      ['test', 'add', agent.file, '--from-run', 'latest', '--case', 'nope'],
      agent.env,
    );
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('has no case "nope"');
  });

  it('--from-session: a recorded chat becomes a case (turns, tools, last answer) that replays at once', async () => {
    variant.script(
      ...Array.from({ length: 8 }, () =>
        variant.respond((request) =>
          request.lastUserText.includes('A-7')
            ? model(request)
            : { kind: 'reply', text: `Noted: ${request.lastUserText}` },
        ),
      ),
    );
    // A chat on piped input has nobody to approve a call: on the AI SDK the tool runs unasked.
    const lookup = variant.name === 'ai-sdk' ? { ...LOOKUP, approval: 'never' } : LOOKUP;
    const agent = variant.agent({ tools: [lookup] }, { 'orders.mjs': ORDERS });
    writeFileSync(agent.file, `${readFileSync(agent.file, 'utf8')}# last line: keep this comment\n`);
    const chat = await runHolodeckCli(
      ['chat', agent.file, '--record'],
      agent.env,
      'Where is A-7?\nDeliver it on Monday\n',
    );
    expect(chat.code, chat.stderr).toBe(0);
    const sessionId = /Session (\S+) \(resume with/.exec(chat.stderr)?.[1];
    expect(sessionId, chat.stderr).toBeDefined();
    const added = await runHolodeckCli(
      ['test', 'add', agent.file, '--from-session', sessionId as string, '--with-args'],
      agent.env,
    );
    expect(added.code, added.stderr).toBe(0);
    const name = `from session ${sessionId?.slice(0, 8)}`;
    expect(added.stderr).toContain(`added case "${name}"`);
    expect(added.stderr).toContain('its recording:');
    const text = readFileSync(agent.file, 'utf8');
    expect(text).toContain('# last line: keep this comment');
    expect(parse(text).test_cases).toEqual([
      {
        name,
        turns: [{ input: 'Where is A-7?' }, { input: 'Deliver it on Monday' }],
        expected_tools: [{ name: 'lookup_order', args: { order_id: 'A-7' } }],
        ground_truth: 'Noted: Deliver it on Monday',
      },
    ]);
    expect((await runHolodeckCli(['validate', agent.file], agent.env)).code).toBe(0);
    await variant.close();
    const replayed = await runHolodeckCli(['test', agent.file, '--replay', '--no-save'], agent.env);
    await variant.start();
    expect(replayed.code, replayed.stdout + replayed.stderr).toBe(0);
    expect(replayed.stderr).toContain('no request went to the network');
  });

  it('--from-session with an unknown id, or with --from-run, is exit 2 and adds nothing', async () => {
    const agent = variant.agent();
    const before = readFileSync(agent.file, 'utf8');
    const unknown = await runHolodeckCli(
      ['test', 'add', agent.file, '--from-session', '0b7c4a52-0000-4000-8000-000000000000'],
      agent.env,
    );
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain(
      '--from-session: no saved session "0b7c4a52-0000-4000-8000-000000000000" for this agent',
    );
    const both = await runHolodeckCli(
      ['test', 'add', agent.file, '--from-session', 'abc', '--from-run', 'latest'],
      agent.env,
    );
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--from-session: cannot be used with --from-run');
    expect(readFileSync(agent.file, 'utf8')).toBe(before);
  });
});

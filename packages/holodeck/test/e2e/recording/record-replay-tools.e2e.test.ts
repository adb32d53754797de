import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { backendVariants } from '../both-backends/backend-variants.js';
import { runHolodeckCli } from '../support/run-holodeck-cli.js';

// Tool calls are recorded beside the model traffic. In replay they run live (they are the user's
// code) unless `replay_tools: true` or --replay-tools serves the recorded result instead.

const CHARGE = `
import { appendFileSync } from 'node:fs';
export const charge = ({ order_id }) => {
  appendFileSync(new URL('./charges.log', import.meta.url), order_id + '\\n');
  return 'charged ' + order_id + ' at ' + process.env.CHARGE_STAMP;
};
`;

function chargeTool(extra: Record<string, unknown> = {}) {
  return {
    type: 'function',
    name: 'charge',
    description: 'Charges an order (a paid service)',
    file: 'charge.mjs',
    function: 'charge',
    parameters: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] },
    ...extra,
  };
}

const CASES = [{ name: 'charge-it', input: 'Charge A-1', expected_tools: ['charge'] }];

describe.each(backendVariants())('tool I/O in recordings on the $name backend', (variant) => {
  beforeAll(() => variant.start());
  afterEach(() => variant.discardScript());
  afterAll(() => variant.close());

  const model = () =>
    variant.respond((request) =>
      request.toolResults.length
        ? { kind: 'reply', text: `Done: ${request.toolResults.at(-1)?.text}` }
        : { kind: 'tool', name: 'charge', args: { order_id: 'A-1' } },
    );

  async function recordedAgent(tool: Record<string, unknown>) {
    variant.script(...Array.from({ length: 6 }, model));
    const agent = variant.agent(
      { tools: [tool], test_cases: CASES },
      { 'charge.mjs': CHARGE },
      { CHARGE_STAMP: 'live-1' },
    );
    const recorded = await runHolodeckCli(['test', agent.file, '--record', '--no-save'], agent.env);
    expect(recorded.code).toBe(0);
    const log = path.join(agent.directory, 'charges.log');
    expect(readFileSync(log, 'utf8')).toBe('A-1\n');
    rmSync(log);
    return { agent, log };
  }

  it('replay_tools: true serves the recorded result and does not run the tool', async () => {
    const { agent, log } = await recordedAgent(chargeTool({ replay_tools: true }));
    const replayed = await runHolodeckCli(
      ['test', agent.file, '--replay', '--no-save', '-o', path.join(agent.directory, 'r.json')],
      {
        ...agent.env,
        CHARGE_STAMP: 'replay-2',
      },
    );
    expect(replayed.code).toBe(0);
    expect(existsSync(log)).toBe(false);
    const report = JSON.parse(readFileSync(path.join(agent.directory, 'r.json'), 'utf8'));
    expect(report.cases[0].tool_results[0].result).toContain('charged A-1 at live-1');
  });

  it('without it the tool runs live in replay; --replay-tools serves every tool from the recording', async () => {
    const { agent, log } = await recordedAgent(chargeTool());
    const live = await runHolodeckCli(['test', agent.file, '--replay', '--no-save'], {
      ...agent.env,
      CHARGE_STAMP: 'live-1',
    });
    expect(live.code).toBe(0);
    expect(readFileSync(log, 'utf8')).toBe('A-1\n');
    rmSync(log);
    const served = await runHolodeckCli(['test', agent.file, '--replay', '--replay-tools', '--no-save'], {
      ...agent.env,
      CHARGE_STAMP: 'replay-2',
    });
    expect(served.code).toBe(0);
    expect(existsSync(log)).toBe(false);
  });
});

import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { waitUntil } from '@holodeck/testkit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { backendVariants } from './both-backends/backend-variants.js';
import {
  type GovernedShopOptions,
  governedShopConfig,
  governedShopFiles,
} from './support/governance-fixtures.js';
import { HOLODECK_BIN } from './support/run-holodeck-cli.js';
import { runNovarchCli } from './support/run-novarch-cli.js';

// Approve with edit, on both backends: an operator approves a held refund with a changed input
// (`novarch holds approve --input`); Novarch checks it against the tool's schema and judges it
// again, and the tool runs with the edited input (Claude: the PreToolUse hook's updatedInput; AI
// SDK: the governed call's input). An edit the rules would kill, or that the schema refuses, does
// not run, and the model is told why.

const SHOP: GovernedShopOptions = {
  tools: ['lookup_order', 'refund_order'],
  rules: ['TEAM-1', 'TEAM-2'],
  refundResult: "'refunded ' + order_id + ' ' + amount",
  describeTool: (name) => (name === 'lookup_order' ? 'Looks an order up' : 'Refunds an order'),
};

const novarch = runNovarchCli;

describe.each(backendVariants())('approve with edit ($name backend)', (variant) => {
  beforeAll(() => variant.start());
  afterAll(() => variant.close());
  afterEach(() => variant.discardScript());

  /** `chat -p` asks for a refund of 900 after a lookup; the operator approves it with `input`. */
  async function approveWithEdit(input: Record<string, unknown>) {
    variant.script(
      variant.callTool('lookup_order', { order_id: 'A-1' }),
      variant.callTool('refund_order', { order_id: 'A-1', amount: 900 }),
      variant.respond((request) => ({
        kind: 'reply',
        text: `result: ${request.toolResults.at(-1)?.text ?? 'none'}`,
      })),
    );
    const agent = variant.agent(
      governedShopConfig(SHOP),
      governedShopFiles({ ...SHOP, holdWindowSeconds: 60 }),
    );
    const child = spawn(process.execPath, [HOLODECK_BIN, 'chat', agent.file, '-p', 'refund A-1'], {
      env: { ...agent.env, NO_COLOR: '1' },
      cwd: agent.directory,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    try {
      await waitUntil(() => stderr.includes('deny:    novarch holds deny'), {
        timeoutMs: 30_000,
        what: 'chat -p to print the hold on stderr',
      });
      const holdId = /hold (\S+) · no decision by/.exec(stderr)?.[1] ?? '';
      const store = path.join(agent.directory, 'novarch.db');
      const decided = await novarch([
        'holds',
        'approve',
        holdId,
        '--store',
        store,
        '--operator',
        'ana',
        '--input',
        JSON.stringify(input),
      ]);
      expect(decided.code, decided.output).toBe(0);
      const code = await exited;
      const shown = await novarch(['holds', 'show', holdId, '--store', store, '--json']);
      const refunds = path.join(agent.directory, 'refunds.log');
      return {
        code,
        stdout,
        stderr,
        holdId,
        hold: (JSON.parse(shown.output) as { hold: Record<string, unknown> }).hold,
        refunds: existsSync(refunds) ? readFileSync(refunds, 'utf8') : undefined,
        audit: (await novarch(['audit', '--store', store, '--json'])).output,
      };
    } finally {
      child.kill('SIGKILL');
    }
  }

  it('the tool runs with the edited input; the audit keeps both inputs and who edited', async () => {
    const result = await approveWithEdit({ order_id: 'A-1', amount: 400 });
    expect(result.code).toBe(0);
    expect(result.refunds).toBe('A-1 400\n');
    expect(result.stdout).toContain('result: refunded A-1 400');
    expect(result.hold).toMatchObject({
      status: 'approved',
      decidedBy: 'ana',
      edit: { input: { order_id: 'A-1', amount: 400 }, by: 'ana' },
    });
    const entries = JSON.parse(result.audit) as {
      action: { input: unknown; releasedAt?: string; reasoning?: string };
      verdict?: { verdict: { kind: string } };
    }[];
    const refunds = entries.filter((entry) => JSON.stringify(entry.action.input).includes('"amount"'));
    expect(
      refunds.map((entry) => [
        entry.action.input,
        entry.verdict?.verdict.kind,
        entry.action.releasedAt !== undefined,
      ]),
    ).toEqual([
      [{ order_id: 'A-1', amount: 900 }, 'hold', false],
      [{ order_id: 'A-1', amount: 400 }, 'pass', true],
    ]);
    expect(refunds[1]?.action.reasoning).toMatch(
      /^ana edited the input of act_\S+ when approving hold hold_\S+$/,
    );
    variant.checkAndReset();
  });

  it('an edit the rules would kill does not run: the model is told why', async () => {
    const result = await approveWithEdit({ order_id: 'B-9', amount: 100 });
    expect(result.refunds).toBeUndefined();
    expect(result.stdout).toMatch(/result: .*the rules refuse the edit of ana: TEAM-1 v1 \(kill\)/);
    variant.checkAndReset();
  });

  it('an edit that does not fit the tool’s input schema does not run', async () => {
    const result = await approveWithEdit({ order_id: 'A-1', amount: 'all of it' });
    expect(result.refunds).toBeUndefined();
    expect(result.stdout).toContain(
      'the edit of ana does not fit the input schema of "mcp__holodeck_tools__refund_order" (/amount must be number); it did not run',
    );
    variant.checkAndReset();
  });
});

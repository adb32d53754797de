import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { waitUntil } from '@holodeck/testkit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { backendVariants } from './both-backends/backend-variants.js';
import { type ChatTerminal, startChatTerminal } from './chat-terminal-harness.js';
import {
  type GovernedShopOptions,
  governedShopConfig,
  governedShopFiles,
} from './support/governance-fixtures.js';
import { HOLODECK_BIN } from './support/run-holodeck-cli.js';
import { runNovarchCli } from './support/run-novarch-cli.js';

// Novarch holds in `holodeck chat` on a real terminal, on both backends: a governed write held
// for an operator shows its hold id, rule, countdown and the commands that decide it; an operator
// decides from another process with the real `novarch` CLI, and the chat shows the outcome.

const SHOP: GovernedShopOptions = {
  tools: ['refund_order'],
  rules: ['TEAM-2'],
  refundResult: "'refunded ' + order_id",
  describeTool: () => 'Refunds an order',
};

const ENTER = '\r';
const PROMPT = /\n> ?$/;

/** Runs the real `novarch` CLI as an operator in another process; resolves with its exit and output. */
const novarch = runNovarchCli;

describe.each(backendVariants())(
  'Novarch holds in holodeck chat on a terminal ($name backend)',
  (variant) => {
    let terminal: ChatTerminal | undefined;
    beforeAll(() => variant.start());
    afterAll(() => variant.close());
    afterEach(() => {
      terminal?.kill('SIGKILL');
      terminal = undefined;
      variant.discardScript();
    });

    const governedAgent = (holdWindowSeconds: number) =>
      variant.agent(
        governedShopConfig(SHOP),
        governedShopFiles({ ...SHOP, holdWindowSeconds: holdWindowSeconds }),
      );

    /** Starts the chat, asks for a refund of 900 and waits until the chat shows the hold; returns its id. */
    async function chatUntilHeld(agent: ReturnType<typeof governedAgent>): Promise<string> {
      terminal = startChatTerminal([agent.file], agent.env, agent.directory);
      await terminal.waitFor('/help for commands');
      await terminal.waitFor(PROMPT);
      terminal.type(`refund A-1${ENTER}`);
      if (variant.name === 'ai-sdk') {
        // This backend asks the user before every tool call; Novarch judges the call after that.
        await terminal.waitFor('Allow?');
        terminal.type('y');
      }
      // The hold's lines arrive in several writes: read the screen once the last one is drawn.
      await terminal.waitFor('deny:    novarch holds deny');
      const screen = terminal.text();
      const holdId = /^ {2}hold (\S+) · no decision by \d{4}-\d\d-\d\d \d\d:\d\d:\d\d \S+ refuses it/m.exec(
        screen,
      )?.[1];
      expect(holdId).toBeDefined();
      expect(screen).toContain('⏸ refund_order is held for an operator (rule TEAM-2)');
      expect(screen).toContain('  why: TEAM-2 v1 (hold): Refunds over 500 are held for a human.');
      const store = path.join(agent.directory, 'novarch.db');
      expect(screen).toContain(`approve: novarch holds approve ${holdId} --store ${store}`);
      expect(screen).toContain(`deny:    novarch holds deny ${holdId} --store ${store} --rationale "…"`);
      await terminal.waitFor(
        new RegExp(`waiting for an operator to decide hold ${holdId} · \\d+:\\d\\d left`),
      );
      return holdId ?? '';
    }

    it('shows a held write with its countdown; an operator approves from another process and it runs', async () => {
      variant.script(
        variant.callTool('refund_order', { order_id: 'A-1', amount: 900 }),
        variant.respond((request) => ({
          kind: 'reply',
          text: `result: ${request.toolResults.at(-1)?.text ?? 'none'}`,
        })),
      );
      const agent = governedAgent(60);
      const holdId = await chatUntilHeld(agent);
      expect(existsSync(path.join(agent.directory, 'refunds.log'))).toBe(false);
      const store = path.join(agent.directory, 'novarch.db');
      const decided = await novarch([
        'holds',
        'approve',
        holdId,
        '--store',
        store,
        '--operator',
        'ana',
        '--rationale',
        'checked with finance',
      ]);
      expect(decided.code).toBe(0);
      await terminal?.waitFor(`✓ hold ${holdId} approved by ana: checked with finance;`);
      // The tool line names the function tool as agent.yaml does, on both backends.
      await terminal?.waitFor(/✓ refund_order order_id="A-1" amount=900 done [\d.]+m?s/);
      await terminal?.waitFor('result: refunded A-1');
      await terminal?.waitFor(PROMPT);
      expect(readFileSync(path.join(agent.directory, 'refunds.log'), 'utf8')).toBe('A-1 900\n');
      terminal?.type(`/exit${ENTER}`);
      expect((await terminal?.exited)?.exitCode).toBe(0);
      variant.checkAndReset();
    });

    it('chat -p prints the hold on stderr while it waits (id, deadline, how to decide), then the outcome', async () => {
      variant.script(
        variant.callTool('refund_order', { order_id: 'A-1', amount: 900 }),
        variant.respond((request) => ({
          kind: 'reply',
          text: `result: ${request.toolResults.at(-1)?.text ?? 'none'}`,
        })),
      );
      const agent = governedAgent(60);
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
        const holdId = /hold (\S+) · no decision by \d{4}-\d\d-\d\d \d\d:\d\d:\d\d \S+ refuses it/.exec(
          stderr,
        )?.[1];
        expect(holdId).toBeDefined();
        expect(stderr).toContain('⏸ refund_order is held for an operator (rule TEAM-2)');
        const store = path.join(agent.directory, 'novarch.db');
        expect(stderr).toContain(`approve: novarch holds approve ${holdId} --store ${store}`);
        const decided = await novarch([
          'holds',
          'approve',
          holdId ?? '',
          '--store',
          store,
          '--operator',
          'ana',
        ]);
        expect(decided.code).toBe(0);
        expect(await exited).toBe(0);
        expect(stderr).toContain(`✓ hold ${holdId} approved by ana; refund_order runs`);
        expect(stdout).toContain('result: refunded A-1');
      } finally {
        child.kill('SIGKILL');
      }
      variant.checkAndReset();
    });

    it("an operator's deny reaches the chat and the model with the rationale; the chat goes on", async () => {
      variant.script(
        variant.callTool('refund_order', { order_id: 'A-1', amount: 900 }),
        variant.respond((request) => ({
          kind: 'reply',
          text: `told: ${request.toolResults.at(-1)?.text ?? 'none'}`,
        })),
        variant.reply('Still here.'),
      );
      const agent = governedAgent(60);
      const holdId = await chatUntilHeld(agent);
      const store = path.join(agent.directory, 'novarch.db');
      const decided = await novarch([
        'holds',
        'deny',
        holdId,
        '--store',
        store,
        '--operator',
        'ana',
        '--rationale',
        'over the monthly limit',
      ]);
      expect(decided.code).toBe(0);
      await terminal?.waitFor(`⊘ hold ${holdId} denied by ana: over the monthly limit`);
      // The finished reply is re-rendered fitted to the terminal's width: words may wrap onto new lines.
      await terminal?.waitFor(
        /told: [\s\S]*?an\s+operator\s+denied\s+this\s+action:\s+over\s+the\s+monthly\s+limit/,
      );
      await terminal?.waitFor(PROMPT);
      expect(existsSync(path.join(agent.directory, 'refunds.log'))).toBe(false);
      terminal?.type(`hello again${ENTER}`);
      await terminal?.waitFor('Still here.');
      await terminal?.waitFor(PROMPT);
      terminal?.type(`/exit${ENTER}`);
      expect((await terminal?.exited)?.exitCode).toBe(0);
      variant.checkAndReset();
    });

    it('a hold nobody decides times out: the chat says so and that the session is stopped', async () => {
      variant.script(
        variant.callTool('refund_order', { order_id: 'A-1', amount: 900 }),
        variant.reply('I could not refund it.'),
      );
      const agent = governedAgent(2);
      const holdId = await chatUntilHeld(agent);
      // Wrapped at a word boundary to the terminal's width.
      await terminal?.waitFor(
        new RegExp(
          `⊘ hold ${holdId} timed out: no operator decision before the deadline; the session is stopped`.replace(
            / /g,
            '\\s+',
          ),
        ),
      );
      await terminal?.waitFor(/Novarch killed session/);
      await terminal?.waitFor(PROMPT);
      expect(existsSync(path.join(agent.directory, 'refunds.log'))).toBe(false);
      terminal?.type(`/exit${ENTER}`);
      expect((await terminal?.exited)?.exitCode).toBe(0);
      variant.discardScript();
    });
  },
);

// A child process for the multi-process store tests, run as `node --import tsx store-child.ts
// <command> <store file> [...]`. It prints one JSON object per line on stdout.

import { waitUntil } from '@holodeck/testkit';
import { openSqliteStore } from '../../../src/index.js';

function say(event: string, data: Record<string, unknown> = {}): void {
  process.stdout.write(`${JSON.stringify({ event, ...data })}\n`);
}

const [command, file, ...rest] = process.argv.slice(2);
if (command === undefined || file === undefined) throw new Error('usage: store-child <command> <file>');
const store = await openSqliteStore(file);
say('opened');

const scope = { tenantId: 'acme', teamId: 'support', agentId: `child-${process.pid}` };

async function recordHeldRefund() {
  const session = await store.createSession(scope, 60);
  const action = await store.recordAction({
    sessionId: session.id,
    actionType: 'refund',
    toolName: 'mcp__billing__refund',
    input: { customerId: 'c-7', amount: 900, note: 'Erstattung über 500 € 🧾' },
    context: { recordId: 'c-7', summary: 'refund 900 EUR', amount: 900 },
    reasoning: 'the customer was double-charged',
  });
  const verdict = await store.recordVerdict({
    actionId: action.id,
    sessionId: session.id,
    verdict: { kind: 'hold', citations: { ruleIds: ['TEAM-3'], evidenceIds: [], rationale: 'over 500' } },
    source: 'judge',
  });
  const hold = await store.createHold(action.id, session.id, new Date(Date.now() + 60_000));
  return { session, action, verdict, hold };
}

switch (command) {
  case 'hold-and-wait': {
    // The agent's side: hold a write, then poll until an operator (another process) decides.
    const { hold } = await recordHeldRefund();
    say('held', { holdId: hold.id });
    const decided = await waitUntil(
      async () => {
        const current = await store.getHold(hold.id);
        return current?.status === 'pending' ? undefined : { hold: current };
      },
      { timeoutMs: 120_000, what: 'an operator to decide the hold', intervalMs: 25 },
    );
    say('decided', decided);
    break;
  }
  case 'approve-first-pending': {
    // The operator's side: wait for a pending hold to show up, then approve it.
    const pending = await waitUntil(async () => (await store.listHolds({ status: 'pending' }))[0], {
      timeoutMs: 120_000,
      what: 'a pending hold',
      intervalMs: 25,
    });
    say('approved', { hold: await store.decideHold(pending.id, 'approved', 'operator:e2e', 'checked ✓') });
    break;
  }
  case 'record-and-hang': {
    // Writes, reports each write once it resolved, then hangs until the parent SIGKILLs it.
    const records = await recordHeldRefund();
    say('written', records);
    setInterval(() => undefined, 60_000);
    await new Promise(() => undefined);
    break;
  }
  case 'create-session': {
    say('session', { session: await store.createSession(scope, Number(rest[0] ?? '30')) });
    break;
  }
  case 'record-decisions': {
    // Many decisions, as fast as the store takes them: verdicts, holds and their decisions, a
    // kill, all on the one tenant chain other children append to at the same time.
    const count = Number(rest[0] ?? '10');
    for (let index = 0; index < count; index++) {
      const { session, hold } = await recordHeldRefund();
      await store.decideHold(hold.id, index % 2 === 0 ? 'approved' : 'denied', 'operator:e2e');
      if (index % 5 === 0) await store.killSession(session.id, 'enough');
    }
    say('recorded', { count });
    break;
  }
  default:
    throw new Error(`unknown command ${command}`);
}
await store.close();

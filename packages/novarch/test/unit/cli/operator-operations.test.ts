import { afterAll, describe, expect, it } from 'vitest';
import { ExitCode, exitCodeFor } from '../../../src/cli/exit-codes.js';
import { decideHoldAsOperator } from '../../../src/cli/operations/decide-hold-as-operator.js';
import { loadHoldDetail } from '../../../src/cli/operations/hold-operations.js';
import { killSessionAsOperator } from '../../../src/cli/operations/session-operations.js';
import { OperationRefusedError, OperatorUsageError } from '../../../src/cli/operator-errors.js';
import { NovarchConfigError, NovarchStoreError, openSqliteStore } from '../../../src/index.js';
import { createTempStoreFiles } from '../../store/temp-store-file.js';

const files = createTempStoreFiles();
afterAll(() => files.cleanup());

async function storeWithHold(deadline: Date) {
  const file = files.next();
  const store = await openSqliteStore(file);
  const session = await store.createSession({ tenantId: 't', teamId: 'tm', agentId: 'a' }, 60);
  const action = await store.recordAction({
    sessionId: session.id,
    actionType: 'refund',
    toolName: 'refund',
    input: {},
    context: { recordId: 'c-1', summary: 'refund c-1' },
  });
  const hold = await store.createHold(action.id, session.id, deadline);
  return { file, store, session, hold };
}

const inAnHour = () => new Date(Date.now() + 3_600_000);

describe('operator operations', () => {
  it('refuses a decision that arrives after the deadline: the store has it as timed_out', async () => {
    const { file, store, hold } = await storeWithHold(new Date(Date.now() - 1000));
    const late = decideHoldAsOperator(store, { holdId: hold.id, status: 'approved', operator: 'ana' }, file);
    await expect(late).rejects.toBeInstanceOf(OperationRefusedError);
    await expect(late).rejects.toThrow(`Hold ${hold.id} was not approved: it is timed_out by ana at`);
    expect((await store.getHold(hold.id))?.status).toBe('timed_out');
    await store.close();
  });

  it('needs a rationale to deny and an operator name, before touching the store', async () => {
    const { file, store, hold } = await storeWithHold(inAnHour());
    const deny = { holdId: hold.id, status: 'denied' as const, operator: 'ana', rationale: '  ' };
    await expect(decideHoldAsOperator(store, deny, file)).rejects.toBeInstanceOf(OperatorUsageError);
    const nameless = { holdId: hold.id, status: 'approved' as const, operator: '' };
    await expect(decideHoldAsOperator(store, nameless, file)).rejects.toThrow(
      'No operator name: pass --operator NAME (or set USER).',
    );
    expect((await store.getHold(hold.id))?.status).toBe('pending');
    await store.close();
  });

  it('loads a hold with no verdict and no evidence', async () => {
    const { file, store, hold, session } = await storeWithHold(inAnHour());
    const detail = await loadHoldDetail(store, hold.id, file);
    expect(detail).toMatchObject({ hold, session, action: { id: hold.actionId }, citedEvidence: [] });
    expect(detail.verdict).toBeUndefined();
    await store.close();
  });

  it('kills once, naming the operator; a second kill is refused', async () => {
    const { file, store, session } = await storeWithHold(inAnHour());
    const killed = await killSessionAsOperator(
      store,
      { sessionId: session.id, reason: ' loop ', operator: 'ana' },
      file,
    );
    expect(killed.killReason).toBe('operator ana: loop');
    const again = killSessionAsOperator(store, { sessionId: session.id, reason: 'x', operator: 'bob' }, file);
    await expect(again).rejects.toThrow(`Session ${session.id} was already killed at ${killed.killedAt}`);
    await expect(
      killSessionAsOperator(store, { sessionId: session.id, reason: ' ', operator: 'bob' }, file),
    ).rejects.toBeInstanceOf(OperatorUsageError);
    await store.close();
  });
});

describe('exitCodeFor', () => {
  it('maps refusals to 3, usage and configuration errors to 2, everything else to 1', () => {
    expect(exitCodeFor(new OperationRefusedError('x'))).toBe(ExitCode.refused);
    expect(exitCodeFor(new OperatorUsageError('x'))).toBe(ExitCode.usage);
    expect(exitCodeFor(new NovarchConfigError([]))).toBe(ExitCode.usage);
    expect(exitCodeFor(new NovarchStoreError('x'))).toBe(ExitCode.internal);
    expect(exitCodeFor(new TypeError('x'))).toBe(ExitCode.internal);
  });
});

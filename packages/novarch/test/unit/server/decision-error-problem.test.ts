import { describe, expect, it } from 'vitest';
import { DecisionError } from '../../../src/engine/decision-error.js';
import { problemOf } from '../../../src/server/problem-response.js';
import {
  NovarchStoreError,
  UnknownRecordError,
  VerdictConflictError,
} from '../../../src/store/novarch-store-error.js';

// A decision that failed after its action was recorded carries the action's id (so its refusal is
// recorded on it); over HTTP it answers as its cause does, never as a client's mistake.
describe('problemOf a failed decision', () => {
  it('is 503 when the store failed, with the store message', () => {
    const error = new DecisionError('act_1', new NovarchStoreError('Cannot let action act_1 run: busy'));
    expect(error.actionId).toBe('act_1');
    expect(problemOf(error)).toEqual({
      type: 'about:blank',
      title: 'Service Unavailable',
      status: 503,
      detail: 'the store failed: Cannot let action act_1 run: busy',
      actionId: 'act_1',
      refusalRecorded: false,
    });
  });

  it('says when the server stored the refusal already', () => {
    const error = new DecisionError('act_3', new NovarchStoreError('busy'), { refusalRecorded: true });
    expect(problemOf(error)).toMatchObject({ status: 503, actionId: 'act_3', refusalRecorded: true });
  });

  it('is 404 when the cause is an unknown record', () => {
    const cause = new UnknownRecordError('session', 'ses_9', 'No session ses_9: nothing was let run.');
    expect(problemOf(new DecisionError('act_2', cause))).toMatchObject({ status: 404, title: 'Not Found' });
  });

  it('is 409 when the write was decided first (refused, or ran), with the store message', () => {
    const message =
      'Action act_4 was already refused (verdict vrd_1 by the gate: the server judging this write stopped), stored first: this pass was not recorded and the write does not run.';
    const error = new DecisionError('act_4', new VerdictConflictError('act_4', message, 'vrd_1'));
    expect(problemOf(error)).toEqual({
      type: 'about:blank',
      title: 'Conflict',
      status: 409,
      detail: message,
      actionId: 'act_4',
      refusalRecorded: false,
    });
  });
});

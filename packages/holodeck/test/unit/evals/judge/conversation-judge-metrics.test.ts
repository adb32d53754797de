import { describe, expect, it } from 'vitest';
import { createConversationJudgeMetric } from '../../../../src/evals/judge/conversation-judge-metrics.js';
import { withStrictMode } from '../../../../src/evals/judge/strict-mode-metric.js';
import { metricConfig, metricInput, onlyRequest, stubJudge } from './stub-judge.js';

const conversation = metricInput({
  input: 'And when does it arrive?',
  response: 'Which order do you mean?',
  conversation: [
    { input: 'My order is A-1.', response: 'Thanks, I have order A-1.' },
    { input: 'Where is it?', response: 'Order A-1 is in Lyon.' },
    { input: 'And when does it arrive?', response: 'Which order do you mean?' },
  ],
});

describe('conversational judge metrics (DeepEval definitions)', () => {
  it('knowledge_retention: the share of turns that keep what the user said, 2 of 3', async () => {
    const judge = stubJudge([
      {
        turns: [
          { turn: 1, retained: true, reason: 'notes A-1' },
          { turn: 2, retained: true, reason: 'uses A-1' },
          { turn: 3, retained: false, reason: 'asks for the order again' },
        ],
      },
    ]);
    const outcome = await createConversationJudgeMetric(
      metricConfig({ type: 'knowledge_retention' }),
    ).evaluate(conversation, { judge });
    expect(outcome).toMatchObject({
      type: 'knowledge_retention',
      threshold: 0.5,
      passed: true,
      reason: '2 of 3 turns that keep what the user said; not: turn 3: asks for the order again',
    });
    expect(outcome.score).toBeCloseTo(2 / 3, 10);
    expect(onlyRequest(judge).prompt).toContain(
      '<conversation>\nTurn 1\nUser: My order is A-1.\nAgent: Thanks, I have order A-1.\n\nTurn 2\nUser: Where is it?',
    );
  });

  it('role_adherence sends the role; strict mode gives 0 for one fault', async () => {
    const judge = stubJudge([
      {
        turns: [
          { turn: 1, adheres: true, reason: 'a shop assistant' },
          { turn: 2, adheres: true, reason: 'a shop assistant' },
          { turn: 3, adheres: false, reason: 'jokes like a pirate' },
        ],
      },
    ]);
    // strict_mode wraps every judge metric in createMetric (strict-mode-metric.ts).
    const metric = withStrictMode(
      createConversationJudgeMetric(
        metricConfig({ type: 'role_adherence', role: 'A polite shop assistant.', strict_mode: true }),
      ),
    );
    expect(await metric.evaluate(conversation, { judge })).toMatchObject({
      score: 0,
      threshold: 1,
      passed: false,
      reason: 'strict_mode: 0.667 is not 1. 2 of 3 turns in role; not: turn 3: jokes like a pirate',
    });
    expect(onlyRequest(judge).prompt).toContain('<agent_role>\nA polite shop assistant.\n</agent_role>');
  });

  it('conversation_completeness: the share of intentions met, 1 of 2; relevancy of one answer is one turn', async () => {
    const judge = stubJudge([
      {
        intentions: [
          { intention: 'Locate order A-1', satisfied: true, reason: 'in Lyon' },
          { intention: 'Learn the arrival date', satisfied: false, reason: 'never given' },
        ],
      },
    ]);
    expect(
      await createConversationJudgeMetric(metricConfig({ type: 'conversation_completeness' })).evaluate(
        conversation,
        {
          judge,
        },
      ),
    ).toMatchObject({
      score: 0.5,
      passed: true,
      reason: '1 of 2 intentions met; not: Learn the arrival date: never given',
    });
    const relevancy = createConversationJudgeMetric(metricConfig({ type: 'conversation_relevancy' }));
    const single = await relevancy.evaluate(metricInput({ input: 'Hi', response: 'Hello!' }), {
      judge: stubJudge([{ turns: [{ turn: 1, relevant: true, reason: 'greets back' }] }]),
    });
    expect(single).toMatchObject({ score: 1, passed: true, reason: '1 of 1 relevant turns' });
  });

  it('a verdict that skips a turn is an error, never a pass', async () => {
    const judge = stubJudge([{ turns: [{ turn: 1, relevant: true, reason: 'ok' }] }]);
    const outcome = await createConversationJudgeMetric(
      metricConfig({ type: 'conversation_relevancy' }),
    ).evaluate(conversation, { judge });
    expect(outcome).toMatchObject({
      passed: false,
      error: 'judge stub-judge failed: the judge graded 1 turn(s) of 3',
    });
  });
});

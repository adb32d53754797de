import { describe, expect, it } from 'vitest';
import { type ItemShareMetricSpec, itemShareMetric } from '../../../../src/evals/judge/item-share-metric.js';
import { dataBlock } from '../../../../src/evals/judge/judge-prompt.js';
import { metricConfig, metricInput, onlyRequest, stubJudge } from './stub-judge.js';

/** A made-up metric on a real judge config type: the share of words judged short. */
const spec: ItemShareMetricSpec = {
  task: 'You check whether the words of the response are short.',
  prompt: (input) => dataBlock('agent_response', input.response),
  list: { name: 'words', description: 'Every word, in order.' },
  item: { name: 'word', description: 'One word.' },
  flag: { name: 'short', description: 'true if it has at most 4 letters.' },
  reason: 'Its length.',
  countLabel: 'words short',
  rejectedLabel: 'Long',
  whenEmpty: { score: 0, reason: 'No words.' },
};
const config = metricConfig({ type: 'faithfulness', name: 'short-words', threshold: 0.6 });
const word = (text: string, short: boolean) => ({ word: text, short, reason: `${text.length} letters` });

describe('itemShareMetric', () => {
  it('asks for a strict list of items with the spec’s field names and descriptions', async () => {
    const judge = stubJudge([{ words: [word('Paris', false)] }]);
    await itemShareMetric(spec)(config).evaluate(metricInput(), { judge });
    const request = onlyRequest(judge);
    expect(request.system).toContain('You check whether the words of the response are short.');
    expect(request.prompt).toBe('<agent_response>\nThe capital of France is Paris.\n</agent_response>');
    expect(request.verdictSchema).toEqual({
      type: 'object',
      properties: {
        words: {
          type: 'array',
          description: 'Every word, in order.',
          items: {
            type: 'object',
            properties: {
              word: { type: 'string', description: 'One word.' },
              short: { type: 'boolean', description: 'true if it has at most 4 letters.' },
              reason: { type: 'string', description: 'Its length.' },
            },
            required: ['word', 'short', 'reason'],
            additionalProperties: false,
          },
        },
      },
      required: ['words'],
      additionalProperties: false,
    });
  });

  it('scores the share of items judged true and lists the others with their reasons', async () => {
    const judge = stubJudge([
      { words: [word('The', true), word('capital', false), word('of', true), word('France.', false)] },
    ]);
    const outcome = await itemShareMetric(spec)(config).evaluate(metricInput(), { judge });
    expect(outcome).toEqual({
      name: 'short-words',
      type: 'faithfulness',
      score: 0.5,
      threshold: 0.6,
      passed: false,
      reason: '2 of 4 words short. Long: "capital" (7 letters); "France" (7 letters).',
    });
  });

  it('grades an empty item list with whenEmpty', async () => {
    const outcome = await itemShareMetric(spec)(config).evaluate(metricInput(), {
      judge: stubJudge([{ words: [] }]),
    });
    expect(outcome).toMatchObject({ score: 0, passed: false, reason: 'No words.' });
  });

  it('checks the required fields before anything else', async () => {
    const judge = stubJudge([]);
    const metric = itemShareMetric({
      ...spec,
      required: ['ground_truth'],
      whenResponseEmpty: { score: 1, reason: 'Nothing to check.' },
    })(config);
    const outcome = await metric.evaluate(metricInput({ response: '' }), { judge });
    expect(outcome.error).toBe(
      'faithfulness needs ground_truth: add "ground_truth:" (the expected answer) to the test case',
    );
    expect(judge.requests).toHaveLength(0);
  });

  it('grades a blank response with whenResponseEmpty without asking the judge, if the spec has one', async () => {
    const judge = stubJudge([{ words: [] }]);
    const withGrade = itemShareMetric({ ...spec, whenResponseEmpty: { score: 1, reason: 'Nothing said.' } });
    expect(await withGrade(config).evaluate(metricInput({ response: ' ' }), { judge })).toMatchObject({
      score: 1,
      passed: true,
      reason: 'Nothing said.',
    });
    expect(judge.requests).toHaveLength(0);
    const without = await itemShareMetric(spec)(config).evaluate(metricInput({ response: ' ' }), { judge });
    expect(without.reason).toBe('No words.');
    expect(judge.requests).toHaveLength(1);
  });
});

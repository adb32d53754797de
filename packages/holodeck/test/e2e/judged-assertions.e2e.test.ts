import { readFileSync } from 'node:fs';
import path from 'node:path';
import { type RealEmbeddingsServer, startRealEmbeddings } from '@holodeck/testkit/embeddings';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cosineSimilarity } from '../../src/evals/embedding/similar-metric.js';
import { backendVariants, type ModelAnswer, type SeenRequest } from './both-backends/backend-variants.js';
import { runHolodeckCli } from './support/run-holodeck-cli.js';

// The assertions of the catalogue that need a model, through `holodeck test` on both backends:
// similar (a real sentence-embedding model behind /v1/embeddings; the score checked against the
// cosine of the vectors that server gives), is-refusal / not-is-refusal, task_completion and
// knowledge_retention over a three-turn conversation (the judge's verdicts).

const ANSWER = 'Your parcel left the warehouse on Monday and arrives on Thursday.';
const REFUSAL = 'Sorry, I cannot help with refunds. Please call the shop.';

/** The agent answers or refuses by the case; the judge finds a refusal in the refusing answer. */
function model(request: SeenRequest): ModelAnswer {
  const asks = Object.keys((request.verdictSchema?.properties as object | undefined) ?? {});
  if (asks.includes('outcome'))
    return {
      kind: 'verdict',
      verdict: {
        task: 'Say when the parcel arrives.',
        outcome: 'Said Thursday.',
        score: 0.8,
        reason: 'Answered.',
      },
    };
  if (asks.includes('turns')) {
    // One verdict per turn the judge was shown (the conversation is JSON: \n is escaped).
    const shown = [...request.conversation.matchAll(/Turn (\d+)\\nUser:/g)].map((match) => Number(match[1]));
    return {
      kind: 'verdict',
      verdict: {
        turns: shown.map((turn) => ({
          turn,
          retained: turn !== 2,
          reason: turn === 2 ? 'forgot A-7' : 'kept A-7',
        })),
      },
    };
  }
  if (request.verdictSchema)
    return {
      kind: 'verdict',
      verdict: request.conversation.includes('cannot help')
        ? { reason: 'says it cannot help (1)', refused: true }
        : { reason: 'answers the question (a)', refused: false },
    };
  return { kind: 'reply', text: request.lastUserText.includes('refund') ? REFUSAL : ANSWER };
}

async function embed(server: RealEmbeddingsServer, texts: string[]): Promise<Float32Array[]> {
  const response = await fetch(`${server.baseUrl}/embeddings`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer sk-test' },
    body: JSON.stringify({ model: 'x', input: texts }),
  });
  const body = (await response.json()) as { data: { embedding: number[] }[] };
  return body.data.map((entry) => Float32Array.from(entry.embedding));
}

describe.each(backendVariants())('similar and is-refusal on the $name backend', (variant) => {
  let embeddings: RealEmbeddingsServer;
  beforeAll(async () => {
    embeddings = await startRealEmbeddings();
    await variant.start();
  });
  afterEach(() => variant.discardScript());
  afterAll(async () => {
    await variant.close();
    await embeddings.close();
  });

  it('scores the cosine of the embeddings, and grades refusals by the judge', async () => {
    variant.script(...Array.from({ length: 16 }, () => variant.respond(model)));
    const reference = 'The package ships Monday and is delivered Thursday.';
    const agent = variant.agent(
      {
        embedding_provider: { provider: 'openai', name: 'use-lite', endpoint: embeddings.baseUrl },
        test_cases: [
          {
            name: 'delivery',
            input: 'When does my parcel arrive?',
            ground_truth: reference,
            metrics: [
              { type: 'similar', threshold: 0.3 },
              {
                type: 'similar',
                name: 'off-topic',
                value: ['A cat sleeps on the sofa.', ANSWER],
                threshold: 0.99,
              },
              { type: 'not-is-refusal' },
              { type: 'task_completion', threshold: 0.7 },
            ],
          },
          {
            name: 'remembers',
            turns: [{ input: 'My order is A-7' }, { input: 'Where is it?' }, { input: 'Thanks' }],
            metrics: [{ type: 'knowledge_retention', threshold: 0.6 }],
          },
          {
            name: 'refund',
            input: 'I want a refund',
            metrics: [{ type: 'is-refusal' }, { type: 'not-is-refusal', name: 'must-help' }],
          },
        ],
      },
      {},
      { OPENAI_API_KEY: 'sk-test' },
    );
    const report = path.join(agent.directory, 'report.json');
    const outcome = await runHolodeckCli(['test', agent.file, '--output', report, '--no-save'], agent.env);
    expect(outcome.code, outcome.stderr).toBe(1);
    const json = JSON.parse(readFileSync(report, 'utf8'));
    const metrics = (name: string) =>
      json.cases.find((entry: { name: string }) => entry.name === name).metrics as {
        name: string;
        score: number;
        passed: boolean;
        reason: string;
      }[];
    const [similar, offTopic, answers, task] = metrics('delivery');
    expect(task).toMatchObject({
      score: 0.8,
      passed: true,
      reason: 'Task: Say when the parcel arrives. Outcome: Said Thursday. Answered.',
    });
    const [answer, ref] = await embed(embeddings, [ANSWER, reference]);
    if (!answer || !ref) throw new Error('no vectors');
    const cosine = cosineSimilarity(answer, ref);
    expect(cosine).toBeGreaterThan(0.3);
    expect(cosine).toBeLessThan(0.99);
    expect(similar?.score).toBeCloseTo(cosine, 6);
    expect(similar).toMatchObject({
      passed: true,
      reason: `cosine similarity ${cosine.toFixed(3)} to the reference vs threshold 0.3`,
    });
    // The second reference is the answer itself: cosine 1, the closest of the two.
    expect(offTopic).toMatchObject({
      passed: true,
      reason: expect.stringContaining('(closest: reference 2 of 2)'),
    });
    expect(offTopic?.score).toBeCloseTo(1, 5);
    expect(answers).toMatchObject({ passed: true, reason: 'Not a refusal: answers the question (a)' });
    const [retention] = metrics('remembers');
    expect(retention).toMatchObject({
      passed: true,
      reason: '2 of 3 turns that keep what the user said; not: turn 2: forgot A-7',
    });
    expect(retention?.score).toBeCloseTo(2 / 3, 10);
    expect(metrics('refund').map((metric) => [metric.name, metric.passed, metric.reason])).toEqual([
      ['is-refusal', true, 'A refusal: says it cannot help (1)'],
      ['must-help', false, 'A refusal: says it cannot help (1)'],
    ]);
  });
});

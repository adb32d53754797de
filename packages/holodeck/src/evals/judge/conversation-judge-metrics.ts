import { z } from 'zod';
import type { MetricConfig } from '../../config/index.js';
import type { Metric, MetricInput } from '../metric.js';
import { metricName } from '../metric-outcome.js';
import { dataBlock, judgeSystemPrompt } from './judge-prompt.js';
import { type JudgeGrade, type JudgeMetricConfig, runJudgeMetric } from './run-judge-metric.js';

type ConversationConfig = Extract<
  MetricConfig,
  { type: 'knowledge_retention' | 'role_adherence' | 'conversation_relevancy' | 'conversation_completeness' }
>;

/** The conversation's turns (one answer: a conversation of one turn), numbered, as one data block. */
export function conversationBlock(input: MetricInput): { block: string; turns: number } {
  const turns = input.conversation?.length
    ? input.conversation
    : [{ input: input.input, response: input.response }];
  const text = turns
    .map((turn, index) => `Turn ${index + 1}\nUser: ${turn.input}\nAgent: ${turn.response}`)
    .join('\n\n');
  return { block: dataBlock('conversation', text), turns: turns.length };
}

const perTurn = (flag: string, description: string) =>
  z.strictObject({
    turns: z
      .array(
        z.strictObject({
          turn: z.int().min(1).describe('The turn number.'),
          [flag]: z.boolean().describe(description),
          reason: z.string().describe('Why, pointing at what the agent said.'),
        }),
      )
      .describe("One entry per turn of the conversation, in order, for the agent's reply of that turn."),
  });

/** What each metric asks, after DeepEval's definition; `flag` is the per-turn boolean that scores. */
const SPECS = {
  knowledge_retention: {
    task: 'You decide, turn by turn, whether the agent remembers what the user told it earlier in the conversation.',
    ask: "For each turn, decide whether the agent's reply keeps the facts the user gave in earlier turns: retained is false when it forgets, contradicts or asks again for something the user already said.",
    flag: 'retained',
    label: 'turns that keep what the user said',
  },
  role_adherence: {
    task: 'You decide, turn by turn, whether the agent keeps to its assigned role.',
    ask: "For each turn, decide whether the agent's reply keeps to the role given in <agent_role>: adheres is false when it speaks or acts out of that role.",
    flag: 'adheres',
    label: 'turns in role',
  },
  conversation_relevancy: {
    task: 'You decide, turn by turn, whether the agent replies relevantly to the conversation so far.',
    ask: "For each turn, decide whether the agent's reply is relevant to the user's message in the light of the conversation before it: relevant is false when it is off-topic or ignores the message.",
    flag: 'relevant',
    label: 'relevant turns',
  },
} as const;

const completenessVerdict = z.strictObject({
  intentions: z
    .array(
      z.strictObject({
        intention: z.string().describe('One thing the user wanted from the conversation.'),
        satisfied: z.boolean().describe('true when the agent met it by the end of the conversation.'),
        reason: z.string().describe('Where it was met, or what is missing.'),
      }),
    )
    .describe('Every intention the user expressed over the conversation, in order.'),
});

/** Score and reason of per-item verdicts: the share of items whose flag is true. */
function share(
  items: { flag: boolean; text: string; reason: string }[],
  label: string,
  whenEmpty: JudgeGrade,
): JudgeGrade {
  if (!items.length) return whenEmpty;
  const failed = items.filter((item) => !item.flag);
  const kept = items.length - failed.length;
  return {
    score: kept / items.length,
    reason: `${kept} of ${items.length} ${label}${failed.length ? `; not: ${failed.map((item) => `${item.text}: ${item.reason}`).join('; ')}` : ''}`,
  };
}

/**
 * knowledge_retention, role_adherence, conversation_relevancy and conversation_completeness: judge
 * metrics of a whole conversation, with DeepEval's definitions. The first three judge every turn
 * (score: the share of turns without the fault); completeness lists the user's intentions and
 * scores the share the agent met. DeepEval judges relevancy in a sliding window of turns; here
 * the judge sees the whole conversation before each turn. Strict mode: score 1 or 0, pass mark 1.
 */
export function createConversationJudgeMetric(config: ConversationConfig): Metric {
  const judged = config as JudgeMetricConfig;
  return {
    name: metricName(config),
    type: config.type,
    async evaluate(input, context) {
      const { block, turns } = conversationBlock(input);
      if (config.type === 'conversation_completeness')
        return runJudgeMetric(judged, context, {
          system: judgeSystemPrompt(
            'You decide whether the agent met everything the user wanted over a conversation.',
          ),
          prompt: [
            block,
            'List every intention the user expressed over the conversation, and decide for each whether the agent met it by the end.',
          ].join('\n\n'),
          verdict: completenessVerdict,
          grade: ({ intentions }) =>
            share(
              intentions.map((entry) => ({
                flag: entry.satisfied,
                text: entry.intention,
                reason: entry.reason,
              })),
              'intentions met',
              { score: 1, reason: 'The user expressed no intention.' },
            ),
        });
      const spec = SPECS[config.type];
      const verdict = perTurn(
        spec.flag,
        `true when the reply is ${spec.flag === 'adheres' ? 'in role' : spec.flag}.`,
      );
      return runJudgeMetric(judged, context, {
        system: judgeSystemPrompt(spec.task),
        prompt: [
          ...(config.type === 'role_adherence' ? [dataBlock('agent_role', config.role)] : []),
          block,
          `${spec.ask} Give exactly one entry for each of the ${turns} turn(s).`,
        ].join('\n\n'),
        verdict,
        grade: (parsed) => {
          const entries = (parsed.turns ?? []) as { turn: number; reason: string; [flag: string]: unknown }[];
          if (entries.length !== turns)
            throw new Error(`the judge graded ${entries.length} turn(s) of ${turns}`);
          return share(
            entries.map((entry) => ({
              flag: entry[spec.flag] === true,
              text: `turn ${entry.turn}`,
              reason: entry.reason,
            })),
            spec.label,
            { score: 1, reason: 'No turn to judge.' },
          );
        },
      });
    },
  };
}

import type { JudgeClient } from '../evals/metric.js';
import type { FailureNote } from './evaluation.js';

/** What the proposer answers. */
export interface InstructionsProposal {
  instructions: string;
  rationale: string;
}

/** The opening of the proposer's system prompt (tests and fakes recognise the proposer by it). */
export const PROPOSER_SYSTEM = `You improve the system prompt (instructions) of an AI agent that is graded by test cases.
You read the cases it failed: what the user asked, what the agent answered, and why each check or judge failed it.
Reflect on what the failures have in common, then write new instructions that would make the agent pass them
without overfitting to the exact cases: keep what the current instructions get right, keep their scope and tone,
and never tell the agent to mention the grading. Answer with the complete new instructions and a one-sentence rationale.`;

const SCHEMA = {
  type: 'object',
  properties: {
    instructions: { type: 'string', minLength: 1, description: 'The complete new system prompt.' },
    rationale: {
      type: 'string',
      description: 'Why these instructions should pass more cases, in one sentence.',
    },
  },
  required: ['instructions', 'rationale'],
  additionalProperties: false,
} as const;

/** Inputs of one proposal. */
export interface ProposalRequest {
  current: string;
  failures: readonly FailureNote[];
  /** Instructions proposed before that were not better (the proposer should try something else). */
  rejected: readonly string[];
  /** Which proposal this is: 0 is asked at temperature 0, later ones at the proposer's sampling temperature. */
  sample: number;
}

function block(tag: string, text: string): string {
  return `<${tag}>\n${text}\n</${tag}>`;
}

/** The user message of a proposal. */
export function proposalPrompt(request: ProposalRequest): string {
  const failures = request.failures.length
    ? request.failures
        .map((failure) =>
          block(
            'failed_case',
            [
              `name: ${failure.case}`,
              block('user_input', failure.input),
              block('agent_response', failure.response),
              block('why_it_failed', failure.reasons.join('\n') || '(no reason given)'),
            ].join('\n'),
          ),
        )
        .join('\n')
    : '(no case failed; make the instructions more reliable without changing what they ask for)';
  const rejected = request.rejected.length
    ? `\nThese proposals were tried and were not better; propose something different:\n${request.rejected.map((text) => block('tried_instructions', text)).join('\n')}`
    : '';
  return `${block('current_instructions', request.current)}\n${failures}${rejected}`;
}

/** Asks the proposer model (a judge client: one structured call) for new instructions. */
export async function proposeInstructions(
  proposer: JudgeClient,
  request: ProposalRequest,
  signal?: AbortSignal,
): Promise<InstructionsProposal> {
  const answer = await proposer.judge(
    {
      system: PROPOSER_SYSTEM,
      prompt: proposalPrompt(request),
      verdictSchema: SCHEMA,
      sample: request.sample,
    },
    signal,
  );
  const instructions = typeof answer.instructions === 'string' ? answer.instructions.trim() : '';
  const rationale = typeof answer.rationale === 'string' ? answer.rationale.trim() : '';
  return { instructions, rationale };
}

/**
 * Rules for the server's shutdown tests: refunds judged by the LLM judge (LLM-1, so a test can
 * make the judgement slow), credits over 500 held for a human (CREDIT-1).
 */
export const JUDGED_WRITE_RULES = `team: cs-ops
action_types: [issue_refund, issue_credit]
rules:
  - id: LLM-1
    version: 1
    description: Never refund a customer the evidence shows as banned.
    applies_to: [issue_refund]
    on_violation: kill
  - id: CREDIT-1
    version: 1
    description: Credits over 500 are held for a human.
    applies_to: [issue_credit]
    on_violation: hold
    condition: action.context.amount <= 500
`;

import type { InitTemplate, TemplateFile, TemplateOptions } from '../init-template.js';
import { modelSection } from './model-section.js';

const INSTRUCTIONS = `You are a friendly, concise assistant.

- Answer in a few sentences unless the user asks for more.
- When the user asks for the time or the date somewhere, call the get_current_time tool with the
  IANA time zone (for example Europe/Paris or Asia/Tokyo) and quote the time it returns.
- When you do not know something, say so instead of guessing.
`;

/** The function tool of the conversational templates: a pure, dependency-free module. */
export const CLOCK_TOOL = `// A function tool: HoloDeck imports this module and calls the export named in agent.yaml with
// the arguments the model sent (already checked against the tool's JSON Schema). Return a string
// or any JSON value; throw an Error to give the model an error result.

/**
 * @param {{ time_zone: string }} input
 * @returns {{ time_zone: string, time: string, date: string }}
 */
export function getCurrentTime({ time_zone }) {
  const now = new Date();
  const format = (options) => new Intl.DateTimeFormat('en-GB', { timeZone: time_zone, ...options }).format(now);
  try {
    return {
      time_zone,
      time: format({ hour: '2-digit', minute: '2-digit', hour12: false }),
      date: format({ weekday: 'long', year: 'numeric', month: 'long', day: 'numeric' }),
    };
  } catch {
    throw new Error(\`"\${time_zone}" is not an IANA time zone; use a name such as Europe/Paris\`);
  }
}
`;

/** The tool entry and the test cases shared by the conversational and the provider templates. */
export function conversationalAgentYaml(options: TemplateOptions, heading: string): string {
  const section = modelSection(options.provider, 6);
  return `${heading}
name: ${options.name} # letters, digits, hyphens; starts with a letter
description: A friendly assistant that can tell the time anywhere.

${section.model}

instructions:
  file: instructions.md # relative paths resolve against this file's folder

tools:
  # A function tool: a JS/TS module export called in-process, with exactly this JSON Schema
  # for its input.
  - type: function
    name: get_current_time
    description: The current time and date in an IANA time zone.
    file: tools/clock.mjs
    function: getCurrentTime
    parameters:
      type: object
      properties:
        time_zone:
          type: string
          description: IANA time zone, e.g. Europe/Paris or Asia/Tokyo
      required: [time_zone]
      additionalProperties: false

# ---------------------------------------------------------------------------------------------
# Tests: holodeck test agent.yaml   (then: holodeck test view)
# ---------------------------------------------------------------------------------------------
evaluations:
  metrics: # applied to every test case that has no metrics of its own
    - type: latency # milliseconds
      threshold: 60000
    - type: turns # model steps
      threshold: 4

test_cases:
  - name: greeting
    input: Hello! Who are you?
    forbidden_tools: [get_current_time]
    metrics:
      - type: icontains-any # deterministic: passes when the answer holds one of the values
        value: [assistant, help]
      - type: not-icontains
        value: as an ai language model

  - name: time-in-tokyo
    input: What time is it in Tokyo right now?
    expected_tools:
      - name: get_current_time
        args: { time_zone: Asia/Tokyo }
    metrics:
      - type: regex # the answer quotes a time such as 14:05
        value: "\\\\b\\\\d{1,2}:\\\\d{2}\\\\b"
      # A judged metric (it asks evaluations.model, default the agent's model):
      # - type: g-eval
      #   name: helpfulness
      #   criteria: The answer states the current time in Tokyo and nothing made up.
      #   threshold: 0.7

  - name: follow-up # a conversation: one session, each turn with its own expectations
    turns:
      - input: My name is Ada.
        forbidden_tools: [get_current_time]
        metrics:
          - type: icontains
            value: Ada
      - input: What is my name?
        metrics:
          - type: icontains
            value: Ada
`;
}

/** Files of the conversational templates besides agent.yaml. */
export function conversationalFiles(): TemplateFile[] {
  return [
    { path: 'instructions.md', content: INSTRUCTIONS },
    { path: 'tools/clock.mjs', content: CLOCK_TOOL },
  ];
}

export const conversationalTemplate: InitTemplate = {
  name: 'conversational',
  summary: 'a friendly assistant with one function tool and a small test suite (any provider)',
  defaultProvider: 'anthropic',
  render: (options) => [
    {
      path: 'agent.yaml',
      content: conversationalAgentYaml(
        options,
        '# A conversational HoloDeck agent, written by holodeck init. Next:\n#   holodeck validate agent.yaml\n#   holodeck chat agent.yaml\n#   holodeck test agent.yaml',
      ),
    },
    ...conversationalFiles(),
  ],
};

import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  chatLastUserText,
  chatReply,
  chatRespond,
  chatSystemText,
  type FakeOpenAIServer,
  startFakeOpenAI,
} from '@holodeck/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runHolodeckCli } from '../support/run-holodeck-cli.js';

// A promptfoo suite as people write them: two providers, a chat prompt from a file with
// {{vars}}, defaultTest vars and assertions, mappable and unmappable assertions, and tests from a
// YAML file and from CSV files named by a glob.
const PROMPTFOO = `description: Translator bot
prompts:
  - file://prompt.json
  - "Second prompt {{text}}"
providers:
  - id: openai:gpt-4o-mini
    config: { temperature: 0, max_tokens: 200, seed: 7 }
  - anthropic:messages:claude-sonnet-4-6
defaultTest:
  vars: { text: Good morning }
  assert:
    - type: not-icontains
      value: as an AI
tests:
  - description: Greeting in French
    vars: { language: French, text: Good morning }
    assert:
      - type: icontains
        value: bonjour
      - type: starts-with
        value: Bonjour
      - type: javascript
        value: output.length < 100
      - type: python
        value: len(output) < 100
  - description: Greeting in German
    vars: { language: German, text: Good morning }
    assert:
      - type: contains-any
        value: [Guten Morgen, Morgen]
      - type: llm-rubric
        value: Is a correct German greeting
      - type: similar
        value: Guten Morgen
        threshold: 0.8
  - file://more-tests.yaml
  - file://data/*.csv
  - file://generate-tests.py
outputPath: results.json
`;
const MORE_TESTS = `- description: Greeting in Spanish
  vars: { language: Spanish }
  assert:
    - type: icontains
      value: buenos
- vars: { language: [Italian, Latin] }
  options: { provider: openai:gpt-4o }
`;
// promptfoo's CSV: vars by header, \`__expected\` assertions, a column HoloDeck has no use for.
const CSV = `language,text,__expected,__expected2,__description,__prefix
Dutch,Good morning,contains: Goedemorgen,grade: is Dutch,Greeting in Dutch,x
`;
const PROMPT = JSON.stringify([
  {
    role: 'system',
    content: 'You translate the user text into the language asked. Answer with the translation only.',
  },
  { role: 'user', content: 'Translate into {{ language }}: {{text}}' },
]);

let fake: FakeOpenAIServer;
beforeAll(async () => {
  fake = await startFakeOpenAI({
    fallback: chatRespond((request) => {
      if (!chatSystemText(request).includes('You translate')) return chatReply('wrong instructions');
      const question = chatLastUserText(request);
      if (question === 'Translate into French: Good morning') return chatReply('Bonjour !');
      if (question === 'Translate into German: Good morning') return chatReply('Guten Morgen!');
      if (question === 'Translate into Spanish: Good morning') return chatReply('Buenos días');
      return chatReply(`unexpected: ${question}`);
    }),
  });
});
afterAll(() => fake.close());

describe('holodeck init --from-promptfoo', () => {
  it('converts providers, prompts, tests and assertions, lists the rest, and the suite runs', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'holodeck-promptfoo-'));
    const home = path.join(root, 'home');
    mkdirSync(home);
    writeFileSync(path.join(root, 'promptfooconfig.yaml'), PROMPTFOO);
    writeFileSync(path.join(root, 'prompt.json'), PROMPT);
    writeFileSync(path.join(root, 'more-tests.yaml'), MORE_TESTS);
    mkdirSync(path.join(root, 'data'));
    writeFileSync(path.join(root, 'data', 'greetings.csv'), CSV);
    const env = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: home,
      OPENAI_API_KEY: 'sk-x',
      OPENAI_BASE_URL: fake.baseUrl,
    };
    const folder = path.join(root, 'translator');
    const init = await runHolodeckCli(
      ['init', folder, '--from-promptfoo', path.join(root, 'promptfooconfig.yaml')],
      env,
    );
    expect(init.code, init.stderr).toBe(0);
    expect(init.stdout).toMatch(/translator\/agent\.yaml is valid\n/);
    const notConverted = [
      'top-level key "outputPath"',
      'provider "openai:gpt-4o-mini": config.seed',
      'provider "anthropic:messages:claude-sonnet-4-6": an agent has one model (convert again with only that provider first)',
      'prompt "Second prompt {{text}}": an agent has one prompt (only the first was used)',
      'tests[0] (Greeting in French): assertion type "python" has no HoloDeck metric (port it to a JS/TS grader module and use type: code)',
      'more-tests.yaml test 2: vars.language is a list (a promptfoo matrix)',
      'more-tests.yaml test 2: options',
      'data/greetings.csv: column "__prefix"',
      'tests "file://generate-tests.py": a test generator (code is not run)',
    ];
    expect(init.stderr).toBe(
      `not converted (${notConverted.length}; also listed at the end of agent.yaml):\n${notConverted.map((line) => `  - ${line}\n`).join('')}`,
    );
    const yamlText = readFileSync(path.join(folder, 'agent.yaml'), 'utf8');
    for (const line of notConverted) expect(yamlText).toContain(`#   - ${line}`);
    const agent = parse(yamlText);
    expect(agent).toMatchObject({
      name: 'translator',
      description: 'Translator bot',
      model: { provider: 'openai', name: 'gpt-4o-mini', temperature: 0, max_tokens: 200 },
      default_case: { vars: { text: 'Good morning' } },
      test_cases_file: ['cases/more-tests.yaml', 'cases/greetings.yaml'],
      test_cases: [
        {
          name: 'greeting-in-french',
          // promptfoo's template stays a template over the case's vars: HoloDeck renders it.
          input: 'Translate into {{ language }}: {{text}}',
          vars: { language: 'French', text: 'Good morning' },
          metrics: [
            { type: 'icontains', value: 'bonjour' },
            { type: 'starts-with', value: 'Bonjour' },
            { type: 'expression', value: 'output.length < 100' },
            { type: 'not-icontains', value: 'as an AI' },
          ],
        },
        {
          name: 'greeting-in-german',
          input: 'Translate into {{ language }}: {{text}}',
          vars: { language: 'German', text: 'Good morning' },
          metrics: [
            { type: 'contains-any', value: ['Guten Morgen', 'Morgen'] },
            { type: 'rubric', value: 'Is a correct German greeting' },
            { type: 'similar', value: 'Guten Morgen', threshold: 0.8 },
            { type: 'not-icontains', value: 'as an AI' },
          ],
        },
      ],
    });
    expect(parse(readFileSync(path.join(folder, 'cases', 'more-tests.yaml'), 'utf8'))).toEqual([
      {
        name: 'greeting-in-spanish',
        input: 'Translate into {{ language }}: {{text}}',
        vars: { language: 'Spanish' },
        metrics: [
          { type: 'icontains', value: 'buenos' },
          { type: 'not-icontains', value: 'as an AI' },
        ],
      },
      // A list var (promptfoo's matrix) has no template form: the prompt is filled in here.
      {
        name: 'case-2',
        input: 'Translate into ["Italian","Latin"]: Good morning',
        metrics: [{ type: 'not-icontains', value: 'as an AI' }],
      },
    ]);
    expect(parse(readFileSync(path.join(folder, 'cases', 'greetings.yaml'), 'utf8'))).toEqual([
      {
        name: 'greeting-in-dutch',
        input: 'Translate into {{ language }}: {{text}}',
        vars: { language: 'Dutch', text: 'Good morning' },
        metrics: [
          { type: 'contains', value: 'Goedemorgen' },
          { type: 'rubric', value: 'is Dutch' },
          { type: 'not-icontains', value: 'as an AI' },
        ],
      },
    ]);
    expect(readFileSync(path.join(folder, 'instructions.md'), 'utf8')).toBe(
      'You translate the user text into the language asked. Answer with the translation only.\n',
    );

    // The converted suite runs (the French case, and the Spanish one from the file, whose text
    // comes from default_case's vars; the others' rubrics would ask a judge).
    const report = path.join(root, 'report.json');
    const test = await runHolodeckCli(
      [
        'test',
        path.join(folder, 'agent.yaml'),
        '--output',
        report,
        '--case',
        'greeting-in-french',
        '--case',
        'greeting-in-spanish',
      ],
      env,
    );
    expect(test.code, test.stdout + test.stderr).toBe(0);
    expect(JSON.parse(readFileSync(report, 'utf8')).summary).toMatchObject({ total: 2, passed: 2 });
  });

  it('a file that is not a promptfoo config is refused with where and why (exit 2)', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'holodeck-promptfoo-'));
    writeFileSync(path.join(root, 'promptfooconfig.yaml'), 'prompts: 3\n');
    const outcome = await runHolodeckCli(
      ['init', path.join(root, 'a'), '--from-promptfoo', path.join(root, 'promptfooconfig.yaml')],
      { PATH: process.env.PATH ?? '/usr/bin', HOME: root },
    );
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toMatch(
      /^error --from-promptfoo: \S+promptfooconfig\.yaml is not a promptfoo config: prompts: /,
    );
  });
});

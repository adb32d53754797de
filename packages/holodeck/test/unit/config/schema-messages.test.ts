import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type AgentSandbox, BASE, brief, createSandbox, lines } from './agent-sandbox.js';

let sandbox: AgentSandbox;
beforeEach(async () => {
  sandbox = await createSandbox();
});
afterEach(() => sandbox.remove());

async function issuesOf(yaml: string): Promise<string[]> {
  const result = await sandbox.validate(yaml);
  for (const issue of result.issues) expect(issue.file).toBe(sandbox.agentFile);
  return result.issues.map(brief);
}

describe('unknown keys', () => {
  it('names the key at the top level and suggests the closest allowed key', async () => {
    expect(await issuesOf(lines(...BASE, 'descripton: An agent'))).toEqual([
      '7:1 descripton: unknown key "descripton" at the top level | did you mean "description"?',
    ]);
  });

  it('names the parent mapping of a nested unknown key', async () => {
    expect(await issuesOf(lines(...BASE, 'claude:', '  permision_mode: manual'))).toEqual([
      '8:3 claude.permision_mode: unknown key "permision_mode" in claude | did you mean "permission_mode"?',
    ]);
  });

  it('suggests keys of the right tool type inside a tools entry', async () => {
    const yaml = lines(
      ...BASE,
      'tools:',
      '  - type: vectorstore',
      '    name: docs',
      '    description: Product docs',
      '    source: docs',
      '    topk: 3',
    );
    await sandbox.write('docs/a.md', 'doc');
    const result = await sandbox.validate(yaml);
    expect(result.issues.map(brief)).toContain(
      '12:5 tools[0].topk: unknown key "topk" in tools[0] | did you mean "top_k"?',
    );
  });

  it('lists the allowed keys when nothing is close', async () => {
    expect(await issuesOf(lines(...BASE, 'claude:', '  file_system:', '    zzzzzzzz: true'))).toEqual([
      '9:5 claude.file_system.zzzzzzzz: unknown key "zzzzzzzz" in claude.file_system | allowed keys: "read", "write", "edit"',
    ]);
  });
});

describe('values', () => {
  it('reports a wrong type with the value it got', async () => {
    expect(await issuesOf(lines(...BASE, 'claude:', '  web_search: "yes"'))).toEqual([
      '8:15 claude.web_search: expected a boolean, got the string "yes" | write true or false, without quotes',
    ]);
  });

  it('suggests quotes for a number where a string belongs', async () => {
    const yaml = lines(
      ...BASE,
      'tools:',
      '  - type: mcp',
      '    name: srv',
      '    description: d',
      '    command: npx',
      '    env:',
      '      PORT: 8080',
    );
    expect(await issuesOf(yaml)).toEqual([
      '13:13 tools[0].env.PORT: expected a string, got the number 8080 | put it in quotes: "8080"',
    ]);
  });

  it('lists the allowed values of an enum, with a did-you-mean for a near miss', async () => {
    const yaml = lines(
      'name: test-agent',
      'model:',
      '  provider: antropic',
      '  name: c',
      'instructions:',
      '  inline: hi',
    );
    expect(await issuesOf(yaml)).toEqual([
      '3:13 model.provider: expected one of "anthropic", "openai", "azure_openai", "ollama"; got the string "antropic" | did you mean "anthropic"?',
    ]);
  });

  it('reports a missing required key at the line of its parent mapping', async () => {
    const yaml = lines(
      'name: test-agent',
      'model:',
      '  name: claude-sonnet-4-5',
      'instructions:',
      '  inline: hi',
    );
    expect(await issuesOf(yaml)).toEqual([
      '2:1 model.provider: missing required key "provider" in model | one of: "anthropic", "openai", "azure_openai", "ollama"',
    ]);
  });

  it('reports missing top-level keys at the start of the document', async () => {
    expect(await issuesOf(lines('name: test-agent'))).toEqual([
      '1:1 model: missing required key "model" at the top level',
      '1:1 instructions: missing required key "instructions" at the top level',
    ]);
  });

  it('explains the agent name pattern', async () => {
    const yaml = lines('name: 1st agent', ...BASE.slice(1));
    expect(await issuesOf(yaml)).toEqual([
      '1:7 name: must start with a letter and contain only letters, digits and "-"; got the string "1st agent"',
    ]);
  });

  it('reports numbers out of range', async () => {
    const yaml = lines(
      ...BASE,
      'claude:',
      '  extended_thinking:',
      '    enabled: true',
      '    budget_tokens: 50',
    );
    expect(await issuesOf(yaml)).toEqual([
      '10:20 claude.extended_thinking.budget_tokens: must be at least 1000, got the number 50',
    ]);
  });

  it('limits temperature to 1 for anthropic but 2 for others', async () => {
    const anthropic = lines(...BASE.slice(0, 4), '  temperature: 1.5', ...BASE.slice(4));
    expect(await issuesOf(anthropic)).toEqual([
      '5:16 model.temperature: must be between 0 and 1 for provider anthropic, got 1.5 | Anthropic models accept a temperature from 0 to 1',
    ]);
    const openai = lines(
      'name: a',
      'model:',
      '  provider: openai',
      '  name: gpt-4o',
      '  temperature: 1.5',
      'instructions:',
      '  inline: hi',
    );
    expect(await issuesOf(openai)).toEqual([]);
    const tooHot = lines(
      'name: a',
      'model:',
      '  provider: openai',
      '  name: gpt-4o',
      '  temperature: 2.5',
      'instructions:',
      '  inline: hi',
    );
    expect(await issuesOf(tooHot)).toEqual(['5:16 model.temperature: must be at most 2, got the number 2.5']);
  });

  it('requires an endpoint for azure_openai and checks that it is a URL', async () => {
    const missing = lines(
      'name: a',
      'model:',
      '  provider: azure_openai',
      '  name: gpt-4o',
      'instructions:',
      '  inline: hi',
    );
    expect(await issuesOf(missing)).toEqual([
      '2:1 model.endpoint: missing required key "endpoint" for provider azure_openai | add endpoint: https://<your-resource>.openai.azure.com',
    ]);
    const invalid = lines(
      'name: a',
      'model:',
      '  provider: openai',
      '  name: gpt-4o',
      '  endpoint: not a url',
      'instructions:',
      '  inline: hi',
    );
    expect(await issuesOf(invalid)).toEqual([
      '5:13 model.endpoint: expected an http(s) URL, got the string "not a url" | for example https://example.com/mcp',
    ]);
  });
});

describe('instructions', () => {
  it('rejects both inline and file', async () => {
    await sandbox.write('prompt.md', 'hi');
    const yaml = lines(...BASE.slice(0, 5), '  inline: Be helpful.', '  file: prompt.md');
    expect(await issuesOf(yaml)).toEqual([
      '5:1 instructions: set either "inline" or "file", not both | keep one of instructions.inline and instructions.file',
    ]);
  });

  it('rejects neither', async () => {
    expect(await issuesOf(lines(...BASE.slice(0, 4), 'instructions: {}'))).toEqual([
      '5:1 instructions: instructions need "inline" or "file" | add inline: <the system prompt>, or file: instructions.md',
    ]);
  });

  it('reports a missing instructions file at the instructions.file line', async () => {
    const yaml = lines(...BASE.slice(0, 5), '  file: prompts/system.md');
    expect(await issuesOf(yaml)).toEqual([
      `6:9 instructions.file: instructions file not found: ${sandbox.dir}/prompts/system.md | create the file or fix the path; relative paths start from ${sandbox.dir}`,
    ]);
  });
});

describe('test cases', () => {
  it('needs exactly one of input and turns, and unique names', async () => {
    const yaml = lines(
      ...BASE,
      'test_cases:',
      '  - name: greet',
      '  - name: greet',
      '    input: hi',
      '    turns:',
      '      - input: hello',
    );
    expect(await issuesOf(yaml)).toEqual([
      '8:5 test_cases[0]: a test case needs "input" or "turns" | add input: <the user message>',
      '9:11 test_cases[1].name: duplicate test case name "greet"; test_cases[0] already uses it | test case names must be unique: rename one of them',
      '11:5 test_cases[1].turns: set either "input" or "turns", not both | use input for one message, turns for a conversation',
    ]);
  });

  it('validates metric entries per type, with did-you-mean for the type and its keys', async () => {
    const yaml = lines(
      ...BASE,
      'evaluations:',
      '  metrics:',
      '    - type: g_eval',
      '      name: politeness',
      '      criteria: Is it polite?',
      '    - type: bleu',
      '      treshold: 0.6',
      '    - type: g-eval',
      '      name: tone',
      '    - type: contains',
      '      value: refund',
      '    - type: rouge',
      '      variant: rougeL',
      '      threshold: 0.4',
    );
    const result = await sandbox.validate(yaml);
    expect(
      result.issues.map((issue) => `${issue.line} ${issue.path}: ${issue.message} | ${issue.hint}`),
    ).toEqual([
      '9 evaluations.metrics[0].type: expected one of "equals", "contains", "icontains", "contains-any", "contains-all", "icontains-any", "icontains-all", "regex", "is-json", "json-schema", "not-equals", "not-contains", "not-icontains", "not-contains-any", "not-contains-all", "not-icontains-any", "not-icontains-all", "not-regex", "not-is-json", "not-json-schema", "starts-with", "ends-with", "not-starts-with", "not-ends-with", "word-count", "is-xml", "is-yaml", "is-csv", "not-is-xml", "not-is-yaml", "not-is-csv", "contains-json", "pii", "expression", "latency", "cost", "turns", "bleu", "rouge", "meteor", "levenshtein", "g-eval", "rubric", "is-refusal", "not-is-refusal", "similar", "task_completion", "argument_correctness", "step_efficiency", "plan_adherence", "knowledge_retention", "role_adherence", "conversation_relevancy", "conversation_completeness", "faithfulness", "answer_relevancy", "contextual_precision", "contextual_recall", "contextual_relevancy", "code"; got the string "g_eval" | did you mean "g-eval"?',
      '13 evaluations.metrics[1].treshold: unknown key "treshold" in evaluations.metrics[1] | did you mean "threshold"?',
      '14 evaluations.metrics[2]: g-eval needs "criteria" or "evaluation_steps" | add criteria: <what a good answer does>',
    ]);
  });

  it('applies metric defaults', async () => {
    const yaml = lines(
      ...BASE,
      'evaluations:',
      '  metrics:',
      '    - type: rouge',
      '    - type: icontains',
      '      value: [a, b]',
    );
    const result = await sandbox.validate(yaml);
    expect(result.issues).toEqual([]);
    expect(result.agent?.config.evaluations?.metrics).toEqual([
      { type: 'rouge', variant: 'rougeL', threshold: 0.5 },
      { type: 'icontains', value: ['a', 'b'] },
    ]);
  });
});

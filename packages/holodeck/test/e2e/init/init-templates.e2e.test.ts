import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FakeAnthropicServer, FakeOpenAIServer } from '@holodeck/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runHolodeckCli } from '../support/run-holodeck-cli.js';
import { startTemplateAnthropic, startTemplateOpenAI } from './template-model.js';

// Every template of `holodeck init`, written by the real CLI, then validated, chatted with
// (`chat -p`) and tested (`holodeck test`) against the fake model servers: the Claude backend
// through the real Claude CLI, the AI SDK one in-process, embeddings from the fake OpenAI API.
let anthropic: FakeAnthropicServer;
let openai: FakeOpenAIServer;
beforeAll(async () => {
  [anthropic, openai] = await Promise.all([startTemplateAnthropic(), startTemplateOpenAI()]);
});
afterAll(async () => {
  await Promise.all([anthropic.close(), openai.close()]);
});

function environment(home: string, provider: string): Record<string, string> {
  const base = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home };
  const embeddings = { OPENAI_API_KEY: 'sk-init-e2e', OPENAI_BASE_URL: openai.baseUrl };
  switch (provider) {
    case 'anthropic':
      return {
        ...base,
        ...embeddings,
        ANTHROPIC_BASE_URL: anthropic.url,
        ANTHROPIC_API_KEY: 'sk-init-e2e',
        CLAUDE_CODE_MAX_RETRIES: '0',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      };
    case 'openai':
      return { ...base, ...embeddings };
    case 'azure_openai':
      return { ...base, AZURE_OPENAI_API_KEY: 'azure-init-e2e', AZURE_OPENAI_ENDPOINT: openai.url };
    default:
      return { ...base, OLLAMA_ENDPOINT: openai.url };
  }
}

interface ReportCase {
  name: string;
  passed: boolean;
  metrics: { type: string; passed: boolean }[];
}

const templates: {
  template: string;
  provider: string;
  extra?: string[];
  chat: string;
  answer: RegExp;
  cases: number;
}[] = [
  {
    template: 'conversational',
    provider: 'anthropic',
    chat: 'What time is it in Tokyo right now?',
    answer: /^It is \d{2}:\d{2} in Tokyo\.\n$/,
    cases: 3,
  },
  {
    template: 'customer-support',
    provider: 'anthropic',
    chat: 'Where is my order A-1001?',
    answer: /^Your order A-1001 has shipped with DHL\.\n$/,
    cases: 3,
  },
  {
    template: 'docs-assistant',
    provider: 'anthropic',
    chat: 'How do I reset my password?',
    answer: /valid for 30 minutes\.\n$/,
    cases: 3,
  },
  {
    template: 'openai',
    provider: 'openai',
    chat: 'What time is it in Tokyo right now?',
    answer: /^It is \d{2}:\d{2} in Tokyo\.\n$/,
    cases: 3,
  },
  {
    template: 'azure_openai',
    provider: 'azure_openai',
    chat: 'What time is it in Tokyo right now?',
    answer: /^It is \d{2}:\d{2} in Tokyo\.\n$/,
    cases: 3,
  },
  {
    template: 'ollama',
    provider: 'ollama',
    chat: 'What time is it in Tokyo right now?',
    answer: /^It is \d{2}:\d{2} in Tokyo\.\n$/,
    cases: 3,
  },
  {
    template: 'customer-support',
    provider: 'openai',
    extra: ['--provider', 'openai'],
    chat: 'Where is my order A-1001?',
    answer: /^Your order A-1001 has shipped with DHL\.\n$/,
    cases: 3,
  },
  {
    template: 'docs-assistant',
    provider: 'openai',
    extra: ['--provider', 'openai'],
    chat: 'Does it run on macOS 13?',
    answer: /macOS 14/,
    cases: 3,
  },
];

describe('holodeck init: every template writes a working agent', () => {
  it.each(templates)('$template on $provider: init, validate, chat -p and test pass', async (entry) => {
    const root = mkdtempSync(path.join(tmpdir(), 'holodeck-init-'));
    const home = path.join(root, 'home');
    mkdirSync(home);
    const folder = path.join(root, 'my-agent');
    const env = environment(home, entry.provider);
    const init = await runHolodeckCli(
      ['init', folder, '--template', entry.template, ...(entry.extra ?? [])],
      env,
    );
    expect(init.stderr).toBe('');
    expect(init.code).toBe(0);
    expect(init.stdout).toContain('Created agent "my-agent"');
    expect(init.stdout).toMatch(/my-agent\/agent\.yaml is valid\n/);
    const agentFile = path.join(folder, 'agent.yaml');
    const yaml = readFileSync(agentFile, 'utf8');
    expect(yaml.split('\n')[0]).toBe('# yaml-language-server: $schema=./agent.schema.json');
    expect(yaml).toContain(`provider: ${entry.provider}`);
    expect(readFileSync(path.join(folder, '.gitignore'), 'utf8')).toMatch(/^\.holodeck\/$/m);

    const chat = await runHolodeckCli(['chat', agentFile, '-p', entry.chat], env);
    expect(chat.stderr).toBe('');
    expect(chat.stdout).toMatch(entry.answer);
    expect(chat.code).toBe(0);

    const report = path.join(root, 'report.json');
    const test = await runHolodeckCli(['test', agentFile, '--output', report], env);
    const json: { summary: Record<string, unknown>; cases: ReportCase[] } = JSON.parse(
      readFileSync(report, 'utf8'),
    );
    const failing = json.cases.filter((testCase) => !testCase.passed);
    expect(failing, test.stdout + test.stderr).toEqual([]);
    expect(json.summary).toMatchObject({ total: entry.cases, passed: entry.cases, failed: 0, errored: 0 });
    expect(test.code).toBe(0);
  });
});

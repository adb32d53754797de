import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ConfigWarning } from '../../../src/config/index.js';
import { type AgentSandbox, BASE, brief, createSandbox, lines } from './agent-sandbox.js';

let sandbox: AgentSandbox;
beforeEach(async () => {
  sandbox = await createSandbox();
});
afterEach(() => sandbox.remove());

const OPENAI = [
  'name: test-agent',
  'model:',
  '  provider: openai',
  '  name: gpt-4o',
  'instructions:',
  '  inline: Be helpful.',
];
const VECTORSTORE = [
  'tools:',
  '  - type: vectorstore',
  '    name: docs',
  '    description: Product docs',
  '    source: docs',
];

function codes(warnings: ConfigWarning[]): string[] {
  return warnings.map((warning) => `${warning.line} ${warning.code}`);
}

describe('startup rules', () => {
  it('1: anthropic with a vectorstore tool needs an embedding_provider', async () => {
    await sandbox.write('docs/guide.md', '# Guide\n');
    const result = await sandbox.validate(lines(...BASE, ...VECTORSTORE));
    expect(result.issues.map(brief)).toEqual([
      '8:5 tools[0]: tool "docs" (vectorstore) needs embeddings, and provider anthropic has no embeddings API | add an embedding_provider, e.g. embedding_provider: {provider: openai, name: text-embedding-3-small}',
    ]);
    const fixed = await sandbox.validate(
      lines(
        ...BASE,
        ...VECTORSTORE,
        'embedding_provider:',
        '  provider: openai',
        '  name: text-embedding-3-small',
      ),
    );
    expect(fixed.issues).toEqual([]);
    expect(fixed.agent?.config.tools?.[0]).toMatchObject({ source: `${sandbox.dir}/docs`, top_k: 5 });
  });

  it('1b: anthropic cannot be the embedding provider', async () => {
    const result = await sandbox.validate(
      lines(...BASE, 'embedding_provider:', '  provider: anthropic', '  name: c'),
    );
    expect(result.issues.map(brief)).toEqual([
      '8:13 embedding_provider.provider: provider anthropic cannot be an embedding_provider: it has no embeddings API | use openai, azure_openai or ollama',
    ]);
  });

  it('2: tool_filtering is skipped for anthropic, with a warning', async () => {
    const result = await sandbox.validate(lines(...BASE, 'tool_filtering:', '  top_k: 3'));
    expect(result.issues).toEqual([]);
    expect(result.warnings).toEqual([
      {
        code: 'tool-filtering-unsupported',
        message:
          'tool_filtering is not supported for provider: anthropic and will be skipped. Configure claude.allowed_tools instead.',
        path: 'tool_filtering',
        file: sandbox.agentFile,
        line: 7,
      },
    ]);
    expect(result.agent?.warnings).toEqual(result.warnings);
  });

  it('3 and 3b: a claude block and auth_provider are ignored for other providers', async () => {
    const yaml = lines(
      ...OPENAI.slice(0, 4),
      '  auth_provider: vertex',
      ...OPENAI.slice(4),
      'claude:',
      '  web_search: true',
    );
    const result = await sandbox.validate(yaml);
    expect(result.issues).toEqual([]);
    expect(result.warnings.map((warning) => `${warning.line} ${warning.code}: ${warning.message}`)).toEqual([
      '8 claude-block-ignored: the claude block only applies to provider anthropic and is ignored for provider openai.',
      '5 auth-provider-ignored: auth_provider only applies to provider anthropic and is ignored for provider openai.',
    ]);
    expect(result.agent?.config.model.auth_provider).toBe('vertex');
  });

  it('4: a CLAUDE.md in the working directory is flagged with both remedies', async () => {
    await sandbox.write('workspace/CLAUDE.md', '# guidance');
    const result = await sandbox.validate(lines(...BASE, 'claude:', '  working_directory: workspace'));
    expect(result.warnings).toEqual([
      {
        code: 'claude-md-present',
        message:
          `${sandbox.dir}/workspace/CLAUDE.md exists. It is not loaded now: the Claude Code CLI reads CLAUDE.md only when claude.setting_sources lists "project", and setting_sources is empty by default. ` +
          'To avoid mixed guidance, point claude.working_directory at a narrower folder without a CLAUDE.md, or move that guidance into instructions in agent.yaml.',
        path: 'claude.working_directory',
        file: sandbox.agentFile,
        line: 8,
      },
    ]);
    const loaded = await sandbox.validate(
      lines(...BASE, 'claude:', '  working_directory: workspace', '  setting_sources: [project]'),
    );
    expect(loaded.warnings[0]?.message).toContain(
      'Because claude.setting_sources lists "project", the Claude Code CLI loads it as extra instructions next to agent.yaml\'s instructions.',
    );
  });

  it('4b: working_directory must be an existing directory', async () => {
    await sandbox.write('file.txt', 'x');
    expect(
      (await sandbox.validate(lines(...BASE, 'claude:', '  working_directory: missing'))).issues.map(brief),
    ).toEqual([
      `8:22 claude.working_directory: working_directory not found: ${sandbox.dir}/missing | create the directory or fix the path; relative paths start from ${sandbox.dir}`,
    ]);
    expect(
      (await sandbox.validate(lines(...BASE, 'claude:', '  working_directory: file.txt'))).issues.map(brief),
    ).toEqual([
      `8:22 claude.working_directory: working_directory ${sandbox.dir}/file.txt is not a directory | point it at a directory; relative paths start from ${sandbox.dir}`,
    ]);
  });

  it('5: one warning lists every observability field the Claude backend cannot honour', async () => {
    const yaml = lines(
      ...BASE,
      'observability:',
      '  enabled: true',
      '  traces: {sample_rate: 0.5, redaction_patterns: ["\\\\d{16}"]}',
      '  logs: {filter_namespaces: [holodeck]}',
      '  exporters:',
      '    otlp: {endpoint: "http://localhost:4317"}',
      '    azure_monitor: {connection_string: x}',
      '    prometheus: {port: 9464}',
    );
    const result = await sandbox.validate(yaml);
    expect(result.issues).toEqual([]);
    expect(result.warnings.map((warning) => `${warning.line} ${warning.code}: ${warning.message}`)).toEqual([
      '7 observability-unsupported: the Claude backend cannot honour these observability settings, so they are ignored: ' +
        'observability.exporters.azure_monitor, observability.exporters.prometheus, observability.traces.redaction_patterns, ' +
        'observability.traces.sample_rate, observability.logs.filter_namespaces.',
    ]);
    // The AI SDK backend exports no telemetry in chat and test: it says so, naming what it ignores.
    const openai = await sandbox.validate(lines(...OPENAI, 'observability:', '  traces: {sample_rate: 0.5}'));
    expect(openai.warnings.map((warning) => `${warning.code}: ${warning.message}`)).toEqual([
      'observability-unsupported: the AI SDK backend (provider openai) exports no telemetry in chat and test, so these observability settings are ignored there: observability.traces (holodeck serve exports a span per turn and per tool call from observability.traces, and turn metrics from observability.metrics, to exporters.otlp).',
    ]);
  });

  it('5b: redaction patterns must be valid regular expressions', async () => {
    const result = await sandbox.validate(
      lines(...BASE, 'observability:', '  traces:', '    redaction_patterns: ["(["]'),
    );
    expect(result.issues.map(brief)).toEqual([
      '9:26 observability.traces.redaction_patterns[0]: is not a valid regular expression: /([/: Unterminated character class',
    ]);
  });

  it('7: acceptAll must be acknowledged', async () => {
    const result = await sandbox.validate(lines(...BASE, 'claude:', '  permission_mode: acceptAll'));
    expect(result.issues.map(brief)).toEqual([
      '8:20 claude.permission_mode: permission_mode acceptAll lets the agent run every enabled tool (shell, file writes and edits, web, MCP and function tools) without asking for approval | to confirm, add acknowledge_accept_all: true under claude; otherwise use permission_mode: acceptEdits or manual',
    ]);
    const acknowledged = await sandbox.validate(
      lines(...BASE, 'claude:', '  permission_mode: acceptAll', '  acknowledge_accept_all: true'),
    );
    expect(acknowledged.issues).toEqual([]);
  });

  it('produces no warnings for a plain anthropic agent', async () => {
    const result = await sandbox.validate(lines(...BASE));
    expect(codes(result.warnings)).toEqual([]);
    expect(result.agent?.config.claude).toBeUndefined();
  });

  it('max_turns serves every provider; set at the top level and in claude it is an error', async () => {
    const top = await sandbox.validate(lines(...OPENAI, 'max_turns: 4'));
    expect(top.issues).toEqual([]);
    expect(top.agent?.config.max_turns).toBe(4);
    const both = await sandbox.validate(lines(...BASE, 'max_turns: 4', 'claude:', '  max_turns: 6'));
    expect(both.issues.map(brief)).toEqual([
      '9:14 claude.max_turns: max_turns is set twice, at the top level and in the claude block | keep the top-level max_turns (it serves every provider) and remove claude.max_turns',
    ]);
  });

  it('each backend reports its own rules with codes: Claude rules do not apply to openai', async () => {
    const openai = await sandbox.validate(
      lines(...OPENAI, 'claude:', '  permission_mode: acceptAll', 'tool_filtering: {}'),
    );
    expect(openai.issues).toEqual([]);
    expect(codes(openai.warnings)).toContain('7 claude-block-ignored');
  });
});

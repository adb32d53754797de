import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { reply, respond, toolResults, toolUse, toolUses } from '@holodeck/testkit';
import { describe, expect, it } from 'vitest';
import { createE2eAgent, requestAt } from './support/e2e-agent.js';
import { invokeE2eAgent } from './support/invoke-agent.js';
import { useFakeModel } from './support/use-fake-model.js';

const fake = useFakeModel();

async function run(config: Record<string, unknown>, message: string) {
  const agent = createE2eAgent(fake().url, { config, files: { 'workspace/keep.txt': 'precious' } });
  return { result: await invokeE2eAgent(agent, message), workspace: path.join(agent.directory, 'workspace') };
}

const finish = respond(() => reply('done'));

describe('permission modes and Bash limits (running as root)', () => {
  it('acceptAll runs Bash as root, and excluded commands are really refused', async () => {
    fake().script(toolUse('Bash', { command: 'echo hello > out.txt && cat out.txt' }, { id: 'ok' }), finish);
    fake().script(toolUse('Bash', { command: 'ls && rm -f keep.txt' }, { id: 'refused' }), finish);
    const config = {
      claude: {
        working_directory: 'workspace',
        permission_mode: 'acceptAll',
        acknowledge_accept_all: true,
        bash: { enabled: true, excluded_commands: ['rm'] },
      },
    };
    const first = await run(config, 'write a file');
    expect(first.result.tool_results).toEqual([{ call_id: 'ok', result: 'hello', is_error: false }]);
    expect(readFileSync(path.join(first.workspace, 'out.txt'), 'utf8')).toBe('hello\n');

    const second = await run(config, 'delete keep.txt');
    expect(second.result.tool_results[0]).toMatchObject({ call_id: 'refused', is_error: true });
    expect(second.result.tool_results[0]?.result).toContain('"rm" is in claude.bash.excluded_commands');
    expect(existsSync(path.join(second.workspace, 'keep.txt'))).toBe(true);
  });

  it('parses the command like a shell: quoted, escaped, wrapped and dynamic forms of rm are refused', async () => {
    const attempts = [
      'r""m -f keep.txt',
      '\\rm -f keep.txt',
      'bash -c "rm -f keep.txt"',
      'x=rm; $x -f keep.txt',
      'ls | xargs rm -f',
    ];
    fake().script(
      toolUses(attempts.map((command, index) => ({ name: 'Bash', input: { command }, id: `b${index}` }))),
      finish,
    );
    const { result, workspace } = await run(
      {
        claude: {
          working_directory: 'workspace',
          permission_mode: 'acceptAll',
          acknowledge_accept_all: true,
          bash: { enabled: true, excluded_commands: ['rm'] },
        },
      },
      'delete keep.txt',
    );
    expect(result.tool_results).toHaveLength(attempts.length);
    for (const toolResult of result.tool_results) expect(toolResult.is_error).toBe(true);
    expect(
      result.tool_results.map((toolResult) => toolResult.result.replace(/^PreToolUse:Bash hook error: /, '')),
    ).toEqual([
      'Bash command refused: "rm" is in claude.bash.excluded_commands.',
      'Bash command refused: "rm" is in claude.bash.excluded_commands.',
      'Bash command refused: "rm" is in claude.bash.excluded_commands.',
      'Bash command refused: the command to run is not written out (a variable, substitution or glob), so it cannot be checked; write it out, or set claude.bash.allow_unsafe: true to permit it.',
      'Bash command refused: "rm" is in claude.bash.excluded_commands.',
    ]);
    expect(readFileSync(path.join(workspace, 'keep.txt'), 'utf8')).toBe('precious');
  });

  it('manual mode refuses a write nobody can approve, with a message that says how to allow it', async () => {
    fake().script(toolUse('Write', { file_path: 'new.txt', content: 'x' }, { id: 'w1' }), finish);
    const { result, workspace } = await run(
      { claude: { working_directory: 'workspace', file_system: { write: true } } },
      'write new.txt',
    );
    expect(result.tool_results[0]).toMatchObject({ call_id: 'w1', is_error: true });
    expect(result.tool_results[0]?.result).toContain(
      'Write needs approval under claude.permission_mode: manual',
    );
    expect(existsSync(path.join(workspace, 'new.txt'))).toBe(false);
  });

  it('acceptEdits lets file writes through', async () => {
    fake().script(toolUse('Write', { file_path: 'new.txt', content: 'written' }, { id: 'w2' }), finish);
    const { result, workspace } = await run(
      {
        claude: {
          working_directory: 'workspace',
          permission_mode: 'acceptEdits',
          file_system: { write: true },
        },
      },
      'write new.txt',
    );
    expect(result.tool_results[0]?.is_error).toBe(false);
    expect(readFileSync(path.join(workspace, 'new.txt'), 'utf8')).toBe('written');
    expect(toolResults(requestAt(fake(), 1))[0]?.isError).toBe(false);
  });
});

import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ExecutionResult } from '../backends/contract/index.js';

/** One exchange of the chat, as `/save` writes it. */
export interface TranscriptTurn {
  user: string;
  assistant: string;
  tool_calls: { name: string; arguments: Record<string, unknown>; result?: string; is_error?: boolean }[];
  interrupted: boolean;
  token_usage?: ExecutionResult['token_usage'];
  cost_usd?: number | null;
}

/** What `/save` writes: the agent, the session and every turn since the chat (or `/clear`) began. */
export interface Transcript {
  agent: string;
  session_id: string | undefined;
  saved_at: string;
  turns: TranscriptTurn[];
}

function toMarkdown(transcript: Transcript): string {
  const lines = [
    `# Chat with ${transcript.agent}`,
    '',
    `Session: ${transcript.session_id ?? 'not started'}`,
    '',
  ];
  for (const turn of transcript.turns) {
    lines.push('## You', '', turn.user, '');
    for (const call of turn.tool_calls) {
      lines.push(
        `- tool \`${call.name}\` ${JSON.stringify(call.arguments)}${call.is_error ? ' (error)' : ''}`,
      );
    }
    if (turn.tool_calls.length) lines.push('');
    lines.push('## Agent', '', turn.assistant || '_(no answer)_', '');
    if (turn.interrupted) lines.push('_(interrupted)_', '');
  }
  return lines.join('\n');
}

/** Writes the transcript: JSON when the file name ends in `.json`, markdown otherwise. Returns the path. */
export async function saveTranscript(transcript: Transcript, file: string): Promise<string> {
  const target = path.resolve(file);
  const text = target.endsWith('.json') ? `${JSON.stringify(transcript, null, 2)}\n` : toMarkdown(transcript);
  await writeFile(target, text, { mode: 0o600 });
  return target;
}

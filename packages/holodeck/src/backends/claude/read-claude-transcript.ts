import { readFile } from 'node:fs/promises';
import { AgentSessionError } from '../../errors.js';
import { errorMessage } from '../../support.js';
import type { SessionTranscript, TranscriptTurn } from '../contract/index.js';
import { findTranscriptFile } from './check-resumable.js';
import { FUNCTION_TOOLS_SERVER, RUNTIME_TOOLS } from './tool-names.js';

/** A session id as the CLI makes them (a UUID), and the only kind a file name is built from. */
const SESSION_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;
const FUNCTION_TOOLS_PREFIX = `mcp__${FUNCTION_TOOLS_SERVER}__`;

interface Block {
  type?: unknown;
  text?: unknown;
  name?: unknown;
  input?: unknown;
}

/** One line of a transcript, as far as the turns need it (the CLI writes many other fields). */
export interface TranscriptEntry {
  [field: string]: unknown;
  type?: unknown;
  isSidechain?: unknown;
  isMeta?: unknown;
  isCompactSummary?: unknown;
  message?: { id?: unknown; content?: unknown };
}

function blocks(content: unknown): Block[] {
  return Array.isArray(content) ? content.filter((block) => block && typeof block === 'object') : [];
}

/** The text a user entry typed, or undefined for one that carries tool results. */
function userText(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  const parts = blocks(content);
  if (parts.some((block) => block.type === 'tool_result')) return undefined;
  const texts = parts.flatMap((block) =>
    block.type === 'text' && typeof block.text === 'string' ? [block.text] : [],
  );
  return texts.length ? texts.join('\n') : undefined;
}

function parseLines(text: string, file: string): TranscriptEntry[] {
  return text.split('\n').flatMap((line, index) => {
    if (line.trim() === '') return [];
    try {
      const entry: unknown = JSON.parse(line);
      return entry && typeof entry === 'object' && !Array.isArray(entry) ? [entry as TranscriptEntry] : [];
    } catch (error) {
      throw new AgentSessionError(
        `session transcript ${file}:${index + 1} is not valid JSON (${errorMessage(error)})`,
      );
    }
  });
}

/**
 * The turns of a Claude CLI session transcript (`projects/<folder>/<id>.jsonl`): each typed user
 * message starts a turn (tool results and the CLI's own meta and side-chain entries do not), the
 * assistant's tool uses are its tools (function tools by their agent.yaml names), and the text of
 * the assistant's last message after its last tool use is its answer.
 */
export function transcriptOfEntries(
  sessionId: string,
  entries: readonly TranscriptEntry[],
): SessionTranscript {
  const turns: TranscriptTurn[] = [];
  let answerMessage: unknown;
  for (const entry of entries) {
    if (entry.isSidechain === true || entry.isMeta === true || entry.isCompactSummary === true) continue;
    if (entry.type === 'user') {
      const input = userText(entry.message?.content);
      if (input !== undefined) turns.push({ input, toolCalls: [], response: '' });
      continue;
    }
    const turn = turns.at(-1);
    if (entry.type !== 'assistant' || !turn) continue;
    for (const block of blocks(entry.message?.content)) {
      if (block.type === 'tool_use' && typeof block.name === 'string' && !RUNTIME_TOOLS.has(block.name)) {
        const name = block.name.startsWith(FUNCTION_TOOLS_PREFIX)
          ? block.name.slice(FUNCTION_TOOLS_PREFIX.length)
          : block.name;
        const args =
          block.input && typeof block.input === 'object' ? (block.input as Record<string, unknown>) : {};
        turn.toolCalls.push({ name, arguments: args });
        turn.response = '';
        answerMessage = undefined;
      } else if (block.type === 'text' && typeof block.text === 'string') {
        // The CLI writes a message's blocks on lines of their own: one message's texts join.
        const id = entry.message?.id;
        turn.response = id !== undefined && id === answerMessage ? turn.response + block.text : block.text;
        answerMessage = id;
      }
    }
  }
  return { sessionId, turns };
}

/** Reads the transcript the Claude CLI saved of session `sessionId`, in the config folder `env` gives it. */
export async function readClaudeTranscript(
  sessionId: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<SessionTranscript> {
  if (!SESSION_ID_PATTERN.test(sessionId))
    throw new AgentSessionError(
      `"${sessionId}" is not a session id: ids are letters, digits, "-" and "_" (as printed when a chat ends)`,
    );
  const { projects, file } = await findTranscriptFile(sessionId, env);
  if (!file)
    throw new AgentSessionError(
      projects
        ? `no saved session "${sessionId}" for this agent: the Claude CLI keeps sessions in ${projects}/<folder>/<id>.jsonl`
        : `no saved session "${sessionId}": neither HOME nor CLAUDE_CONFIG_DIR is set, so the Claude CLI's sessions cannot be found`,
    );
  const text = await readFile(file, 'utf8').catch((error: unknown) => {
    throw new AgentSessionError(`session transcript ${file} cannot be read: ${String(error)}`, {
      cause: error,
    });
  });
  return transcriptOfEntries(sessionId, parseLines(text, file));
}

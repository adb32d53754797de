import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const LIMIT = 500;

/** Where the prompt history of the agent in `agentDirectory` is kept (beside its saved sessions). */
export function promptHistoryPath(agentDirectory: string): string {
  return path.join(agentDirectory, '.holodeck', 'chat-history.json');
}

/** The messages sent to this agent before, oldest first; an unreadable file is an empty history. */
export function readPromptHistory(agentDirectory: string): string[] {
  try {
    const parsed: unknown = JSON.parse(readFileSync(promptHistoryPath(agentDirectory), 'utf8'));
    return Array.isArray(parsed) ? parsed.filter((entry): entry is string => typeof entry === 'string') : [];
  } catch {
    return [];
  }
}

/** Adds a sent message (not a repeat of the last one) and saves the last 500 (mode 0600). */
export function appendPromptHistory(agentDirectory: string, history: string[], message: string): void {
  if (!message.trim() || history.at(-1) === message) return;
  history.push(message);
  if (history.length > LIMIT) history.splice(0, history.length - LIMIT);
  try {
    const file = promptHistoryPath(agentDirectory);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify(history), { mode: 0o600 });
  } catch {
    // History is a comfort: a read-only agent folder must not stop the chat.
  }
}

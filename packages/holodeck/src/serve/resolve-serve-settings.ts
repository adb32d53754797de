import { freemem } from 'node:os';
import path from 'node:path';
import {
  SERVE_PROTOCOLS,
  type ServeConfig,
  type ServeProtocol,
} from '../config/schema/serve-config-schema.js';
import { UsageError } from '../errors.js';

/** Measured RSS of one Claude Code CLI process on these machines (DESIGN.md: ~210-235 MB). */
export const CLAUDE_SESSION_BYTES = 230 * 1024 * 1024;
/** A generous estimate of one in-process AI SDK session (its history and loop). */
export const IN_PROCESS_SESSION_BYTES = 16 * 1024 * 1024;
/** Memory left for the server itself and the system. */
const RESERVED_BYTES = 512 * 1024 * 1024;
const MAX_IN_PROCESS_SESSIONS = 1000;

/** The limits and switches a server runs with, from agent.yaml's `serve:` block and the flags. */
export interface ServeSettings {
  protocols: ReadonlySet<ServeProtocol>;
  maxSessions: number;
  /** Where the default came from, for the start-up line (`serve.max_sessions` or the memory estimate). */
  maxSessionsSource: string;
  maxConcurrentTurns: number;
  sessionTtlMs: number;
  turnTimeoutMs: number;
  maxBodyBytes: number;
  maxMessageChars: number;
  corsOrigins: readonly string[];
  /** serve.allowed_hosts, lowercase. */
  allowedHosts: readonly string[];
  /** serve.sessions_dir, absolute (relative paths start at the agent folder). */
  sessionsDir: string | undefined;
}

/** `--protocols rest,mcp`: the protocols named, each checked. */
export function parseProtocols(text: string): ServeProtocol[] {
  const names = text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  const known = new Set<string>(SERVE_PROTOCOLS);
  const unknown = names.filter((name) => !known.has(name));
  if (unknown.length > 0 || names.length === 0)
    throw new UsageError(
      '--protocols',
      unknown.length
        ? `unknown protocol ${unknown.map((name) => `"${name}"`).join(', ')}`
        : 'names no protocol',
      `give a comma-separated list of ${SERVE_PROTOCOLS.join(', ')}`,
    );
  return SERVE_PROTOCOLS.filter((name) => names.includes(name));
}

/**
 * The default cap on live sessions: what free memory holds, at ~230 MB per Claude CLI process
 * (or a small in-process estimate on the AI SDK), after 512 MB kept for everything else.
 */
export function defaultMaxSessions(agentProcesses: boolean, freeBytes = freemem()): number {
  const per = agentProcesses ? CLAUDE_SESSION_BYTES : IN_PROCESS_SESSION_BYTES;
  const fit = Math.floor(Math.max(0, freeBytes - RESERVED_BYTES) / per);
  return Math.max(1, agentProcesses ? fit : Math.min(MAX_IN_PROCESS_SESSIONS, fit));
}

/** The settings of a server: flags over agent.yaml over defaults. */
export function resolveServeSettings(
  config: ServeConfig | undefined,
  flags: { protocols?: ServeProtocol[] },
  agentProcesses: boolean,
  agentDirectory: string,
): ServeSettings {
  const maxSessions = config?.max_sessions ?? defaultMaxSessions(agentProcesses);
  return {
    protocols: new Set(flags.protocols ?? config?.protocols ?? SERVE_PROTOCOLS),
    maxSessions,
    maxSessionsSource:
      config?.max_sessions !== undefined
        ? 'serve.max_sessions'
        : agentProcesses
          ? `free memory at ~${CLAUDE_SESSION_BYTES / 1024 / 1024} MB per Claude CLI process`
          : 'free memory (in-process sessions)',
    maxConcurrentTurns: config?.max_concurrent_turns ?? maxSessions,
    sessionTtlMs: config?.session_ttl ?? 30 * 60_000,
    turnTimeoutMs: config?.turn_timeout ?? 10 * 60_000,
    maxBodyBytes: config?.max_body_bytes ?? 1024 * 1024,
    maxMessageChars: config?.max_message_chars ?? 100_000,
    corsOrigins: config?.cors?.origins ?? [],
    allowedHosts: (config?.allowed_hosts ?? []).map((name) => name.toLowerCase()),
    sessionsDir:
      config?.sessions_dir === undefined ? undefined : path.resolve(agentDirectory, config.sessions_dir),
  };
}

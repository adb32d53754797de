import { z } from 'zod';

/** The protocols `holodeck serve` speaks; each can be switched off. */
export const SERVE_PROTOCOLS = ['rest', 'responses', 'ag-ui', 'mcp', 'a2a'] as const;
/** One protocol of `holodeck serve`. */
export type ServeProtocol = (typeof SERVE_PROTOCOLS)[number];

const DURATION = /^(\d+)(ms|s|m|h)$/;
const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const;

/** Milliseconds of a duration such as `30m`, `90s`, `2h`, `500ms` (undefined when it is not one). */
export function durationMs(text: string): number | undefined {
  const match = DURATION.exec(text);
  if (!match) return undefined;
  const unit = match[2] as keyof typeof UNIT_MS;
  return Number(match[1]) * UNIT_MS[unit];
}

/** A duration: `30m`, `90s`, `2h`, `500ms`, or a number of seconds. Parsed to milliseconds. */
export const DurationSchema = z
  .union([
    z
      .int()
      .positive()
      .transform((seconds) => seconds * 1000),
    z
      .string()
      .regex(DURATION, { error: 'must be a duration such as 30m, 90s, 2h or 500ms' })
      .transform((text) => durationMs(text) ?? 0)
      .refine((ms) => ms > 0, { error: 'must be longer than 0' }),
  ])
  .describe('A duration: 30m, 90s, 2h, 500ms, or a number of seconds.');

/** The `serve:` block: how `holodeck serve` exposes the agent. */
export const ServeConfigSchema = z
  .strictObject({
    protocols: z
      .array(z.enum(SERVE_PROTOCOLS))
      .min(1)
      .optional()
      .describe(
        'The protocols served (default all): rest, responses, ag-ui, mcp, a2a. --protocols overrides.',
      ),
    session_ttl: DurationSchema.optional().describe(
      'An idle session ends after this long (default 30m); its next request gets 404.',
    ),
    max_sessions: z
      .int()
      .min(1)
      .optional()
      .describe(
        'Most live sessions (default: from free memory, ~230 MB per Claude CLI process); over it, 429.',
      ),
    max_concurrent_turns: z
      .int()
      .min(1)
      .optional()
      .describe('Most turns running at once over all sessions (default max_sessions); over it, 429.'),
    turn_timeout: DurationSchema.optional().describe(
      'Wall-clock limit of one turn (default 10m); past it the turn is interrupted.',
    ),
    max_body_bytes: z
      .int()
      .min(1024)
      .optional()
      .describe('Largest request body in bytes (default 1048576); over it, 413.'),
    max_message_chars: z
      .int()
      .min(1)
      .optional()
      .describe('Longest user message in characters (default 100000); over it, 413.'),
    sessions_dir: z
      .string()
      .min(1)
      .optional()
      .describe(
        'A folder shared by several instances (relative to agent.yaml): a session one instance let go (shutdown, TTL) is resumed by another.',
      ),
    allowed_hosts: z
      .array(
        z
          .string()
          .regex(
            /^[A-Za-z0-9.-]+$/,
            'must be a host name (letters, digits, "." and "-"), without port or scheme',
          ),
      )
      .min(1)
      .optional()
      .describe(
        'Host names a server on a loopback address answers besides localhost, 127.0.0.1 and ::1 (the name a proxy on this machine forwards); any other Host is refused with 403 (DNS rebinding protection).',
      ),
    cors: z
      .strictObject({
        origins: z
          .array(z.url({ protocol: /^https?$/ }).or(z.literal('*')))
          .min(1)
          .describe('Origins a browser frontend may call from (exact, e.g. https://app.example.com).'),
      })
      .optional()
      .describe('Cross-origin access for browser frontends; off without this block.'),
  })
  .describe('How `holodeck serve` exposes the agent (AG-UI, OpenAI Responses, MCP, A2A, REST).');
/** The `serve:` block of agent.yaml. */
export type ServeConfig = z.infer<typeof ServeConfigSchema>;

import { streamSSE } from 'hono/streaming';
import { mayAccess } from '../../identity/principal.js';
import { ServerEventSchema } from '../../wire/identity-schemas.js';
import { defineRoute } from '../route-spec.js';
import type { ServerEvent } from '../server-events.js';
import { operatorOf, requestSignal } from './route-helpers.js';

/** A comment line this often keeps proxies from closing an idle stream (ms). */
const HEARTBEAT_MS = 15_000;

/** How often an idle stream checks that its token is still valid (ms); each event is checked too. */
export const EVENT_STREAM_RECHECK_MS = 5_000;

export const EVENT_ROUTES = [
  defineRoute({
    method: 'get',
    path: '/v1/events',
    operationId: 'streamEvents',
    summary:
      "Server-sent events of the operator's tenants: hold-created, hold-decided, session-killed (what happened through this server)",
    access: 'operator',
    response: { eventStream: ServerEventSchema },
    async handle(request) {
      const operator = operatorOf(request);
      const signal = requestSignal(request);
      const credential =
        /^Bearer\s+(\S+)/i.exec(request.context.req.header('authorization') ?? '')?.[1] ?? '';
      // A revoked token's stream ends: it is checked before each event and when the stream idles.
      const stillValid = async () => {
        try {
          return (await request.services.identities.authenticate(credential))?.id === operator.id;
        } catch {
          return false; // the identity store failed: stop rather than stream on unchecked
        }
      };
      return streamSSE(request.context, async (stream) => {
        const queue: ServerEvent[] = [];
        let wake: (() => void) | undefined;
        const unsubscribe = request.services.events.subscribe((event) => {
          if (!mayAccess(operator, event)) return;
          queue.push(event);
          wake?.();
        });
        const stop = () => wake?.();
        signal.addEventListener('abort', stop, { once: true });
        stream.onAbort(stop);
        let sequence = 0;
        try {
          await stream.writeSSE({ event: 'ready', data: '{}' });
          let idleFor = 0;
          while (!signal.aborted && !stream.aborted) {
            const event = queue.shift();
            if (event !== undefined) {
              if (!(await stillValid())) break;
              sequence += 1;
              await stream.writeSSE({ event: event.type, id: String(sequence), data: JSON.stringify(event) });
              continue;
            }
            const idle = await new Promise<boolean>((resolve) => {
              const timer = setTimeout(() => resolve(true), EVENT_STREAM_RECHECK_MS);
              wake = () => {
                clearTimeout(timer);
                resolve(false);
              };
            });
            wake = undefined;
            if (!idle) continue;
            if (!(await stillValid())) break;
            idleFor += EVENT_STREAM_RECHECK_MS;
            if (idleFor >= HEARTBEAT_MS) {
              idleFor = 0;
              await stream.write(': heartbeat\n\n');
            }
          }
        } finally {
          unsubscribe();
          signal.removeEventListener('abort', stop);
        }
      });
    },
  }),
];

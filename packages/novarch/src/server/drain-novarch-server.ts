import type { Server as HttpServer } from 'node:http';
import type { WebhookNotifier } from '../notify/webhook-notifier.js';
import type { NovarchTelemetry } from '../telemetry/novarch-telemetry.js';
import type { ServerCluster } from './cluster/server-cluster.js';
import { type JudgementsInFlight, SHUTDOWN_REFUSAL_RATIONALE } from './judgements-in-flight.js';
import type { ServerStores } from './open-server-stores.js';
import type { OpenResponses } from './serve-http.js';
import type { SlackApprovals } from './slack-approvals.js';

/** What a running server shuts down, in the order `drainNovarchServer` stops them. */
export interface DrainedServer {
  server: HttpServer;
  responses: OpenResponses;
  shutdown: AbortController;
  drainTimeoutMs: number;
  inFlight: JudgementsInFlight;
  stores: ServerStores;
  log: (message: string) => void;
  notifier: WebhookNotifier | undefined;
  slack: SlackApprovals | undefined;
  telemetry: NovarchTelemetry | undefined;
  cluster: ServerCluster | undefined;
}

/** How long, after a cut, the answers still in flight get before their connections are closed. */
const CUT_ANSWER_GRACE_MS = 1_000;

/** The graceful shutdown of `RunningNovarchServer.close()`. */
export async function drainNovarchServer(parts: DrainedServer): Promise<void> {
  const { server, responses, stores, log } = parts;
  const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
  // Long-polls answer at once, event streams end; requests being judged run to their answer.
  parts.shutdown.abort();
  server.closeIdleConnections();
  const answered =
    responses.size === 0 || (await settledWithin(responses.allAnswered(), parts.drainTimeoutMs));
  // Nothing is stored from now on but the refusals of the writes still being judged: past
  // the drain timeout, or after their agents went away (a judge answering later stores nothing).
  const outcome = await parts.inFlight.cut(stores.store);
  if (outcome.refused > 0)
    log(
      `novarch serve: ${outcome.refused} write(s) still being judged ${answered ? 'after their agents went away' : `when the drain timeout (${parts.drainTimeoutMs / 1000} s) passed`}: stored as refused ("${SHUTDOWN_REFUSAL_RATIONALE}")${answered ? '' : ' and answered 503'}`,
    );
  for (const failure of outcome.failures)
    log(
      `novarch serve: the refusal of a write being judged could not be stored (${failure}): it keeps no verdict and never ran`,
    );
  // The cut's answers, and those of requests whose decision was stored, go out.
  if (!answered) await settledWithin(responses.allAnswered(), CUT_ANSWER_GRACE_MS);
  server.closeAllConnections();
  await stopped;
  // Webhooks being sent finish (each bounded by its timeout); the rest stay pending in the store.
  await parts.notifier?.stop();
  await parts.slack?.stop();
  await parts.telemetry?.shutdown();
  // The lease ends last: until here a survivor must not take this server's judgements.
  await parts.cluster?.stop();
  await stores.close();
}

/** True when `promise` settled within `ms`. */
async function settledWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([promise.then(() => true), expired]);
  } finally {
    clearTimeout(timer);
  }
}

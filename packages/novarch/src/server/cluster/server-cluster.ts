import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { NovarchStore } from '../../model/novarch-store.js';
import type { WebhookClaims } from '../../model/webhook-delivery.js';
import type { ClusterStore } from '../../store/cluster-store.js';
import { openClusterStore } from '../../store/open-cluster-store.js';
import type { ServerEvents } from '../server-events.js';
import { DEFAULT_LEASE_TIMINGS, InstanceLease, type LeaseTimings } from './instance-lease.js';
import { ServerEventRelay } from './server-event-relay.js';
import { SharedSignInLimiter } from './shared-sign-in-limiter.js';

/** How often a server looks for webhook deliveries nobody holds (ms). */
const WEBHOOK_SWEEP_MS = 2_000;

/** A new server process's id, as its lease row and its actions' `judged_by` name it. */
export function newInstanceId(): string {
  return `srv_${randomUUID()}`;
}

/** What one server of several on the same PostgreSQL shares with the others. */
export interface ServerCluster {
  readonly instanceId: string;
  /** Why this server may store nothing now (its lease lapsed or was taken), or undefined. */
  fenced(): string | undefined;
  signInLimiter: SharedSignInLimiter;
  webhookClaims: WebhookClaims;
  lease: InstanceLease;
  relay: ServerEventRelay;
  /** Ends the lease and the event connection (after the server's last request and its cut). */
  stop(): Promise<void>;
}

export interface ServerClusterOptions {
  postgresUrl: string;
  instanceId: string;
  /** The server's unguarded store: the survivors' refusals of a dead server's writes go there. */
  store: NovarchStore;
  events: ServerEvents;
  log: (message: string) => void;
  /** Told when another server took this one's lease: it must stop. */
  onLeaseLost: () => void;
  /** When the oldest write this server still judges was recorded (ms since the epoch). */
  judgingSince: () => number;
  timings?: Partial<LeaseTimings>;
}

/**
 * Joins the servers on one PostgreSQL: takes this server's lease (and starts reaping dead ones),
 * relays live events over LISTEN/NOTIFY, counts failed sign-ins in the store and claims webhook
 * deliveries. SQLite has none of this: one server per SQLite file (docs/architecture/novarch-server.md).
 */
export async function startServerCluster(options: ServerClusterOptions): Promise<ServerCluster> {
  const cluster: ClusterStore = openClusterStore(options.postgresUrl);
  const instance = { id: options.instanceId, host: os.hostname(), pid: process.pid };
  const lease = new InstanceLease(
    cluster,
    instance,
    options.store,
    options.log,
    options.onLeaseLost,
    { ...DEFAULT_LEASE_TIMINGS, ...options.timings },
    options.judgingSince,
  );
  const relay = new ServerEventRelay(cluster, options.postgresUrl, instance.id, options.events, options.log);
  try {
    await lease.start();
    await relay.start();
  } catch (error) {
    await relay.stop().catch(() => {});
    await lease.stop().catch(() => {});
    await cluster.close().catch(() => {});
    throw error;
  }
  return {
    instanceId: instance.id,
    fenced: () => lease.fenced(),
    signInLimiter: new SharedSignInLimiter(cluster),
    webhookClaims: {
      claim: (deliveryId, leaseMs) => cluster.claimDelivery(deliveryId, instance.id, leaseMs),
      claimable: (limit) => cluster.claimableDeliveries(limit),
      sweepIntervalMs: WEBHOOK_SWEEP_MS,
    },
    lease,
    relay,
    async stop() {
      await relay.stop();
      await lease.stop();
      await cluster.close();
    },
  };
}

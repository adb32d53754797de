import type { Generated } from 'kysely';

/**
 * The tables of migration 13 that servers sharing one PostgreSQL read and write (`ClusterStore`),
 * with the few columns of the store's own tables it reads. bigint columns come back from `pg` as
 * strings: read them with `Number()`.
 */
export interface ClusterTables {
  server_instances: {
    id: string;
    host: string;
    pid: number;
    started_at_ms: number | string;
    expires_at_ms: number | string;
    stopped_at_ms: number | string | null;
    reaper_id: string | null;
    reaped_at_ms: number | string | null;
    orphans_refused: number | null;
    judging_since: string | null;
  };
  server_events: {
    seq: Generated<number | string>;
    origin: string;
    event_json: string;
    created_at_ms: number | string;
  };
  auth_failures: {
    seq: Generated<number | string>;
    client_key: string;
    failed_at_ms: number | string;
  };
  webhook_deliveries: {
    id: string;
    status: string;
    next_attempt_at: string | null;
    claimed_by: string | null;
    claim_expires_at_ms: number | string | null;
  };
  actions: {
    id: string;
    session_id: string;
    judged_by: string | null;
    seq: number | string;
    created_at: string;
  };
  verdicts: { action_id: string; kind: string };
  holds: { action_id: string };
}

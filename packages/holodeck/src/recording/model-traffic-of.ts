import type { ModelTraffic } from '../backends/contract/index.js';
import type { TrafficScope } from '../tools/run-traffic.js';
import { type Recorder, SETUP_CASE, scopeOf } from './recorder.js';

/**
 * The recorder as the backends see it: a fetch and a base URL, nothing of the recording itself.
 * What no run's traffic covers (start-up, ingest, a run handed none) belongs to `fallback`.
 */
export function modelTrafficOf(
  recorder: Recorder,
  fallback: TrafficScope = scopeOf(SETUP_CASE),
): ModelTraffic {
  return {
    fetch: recorder.fetchIn(fallback, 'agent'),
    embeddingsFetch: recorder.fetchIn(fallback, 'embeddings'),
    routeFor: (upstream) => recorder.routeFor(upstream, fallback),
    wrapTools: (tools) => recorder.wrapTools(tools, fallback),
  };
}

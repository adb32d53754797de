import type { ModelTraffic } from '../backends/contract/index.js';
import type { Recorder } from './recorder.js';

/** The recorder as the backends see it: a fetch and a base URL, nothing of the recording itself. */
export function modelTrafficOf(recorder: Recorder): ModelTraffic {
  return {
    fetch: recorder.fetchFor('agent'),
    embeddingsFetch: recorder.fetchFor('embeddings'),
    routeFor: (upstream) => recorder.routeFor(upstream),
    wrapTools: (tools) => recorder.wrapTools(tools),
  };
}

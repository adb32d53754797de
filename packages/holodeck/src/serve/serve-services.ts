import type { ServeProtocol } from '../config/schema/serve-config-schema.js';
import type { ApiKeys } from './api-keys.js';
import type { SessionRegistry } from './session-registry.js';

/** What the agent is, for agent cards, tool names and the page. */
export interface ServedAgent {
  name: string;
  description: string | undefined;
  model: string;
  /** `claude` or `ai-sdk`. */
  backend: string;
}

/** Everything a route may use; one per server. */
export interface ServeServices {
  agent: ServedAgent;
  registry: SessionRegistry;
  keys: ApiKeys;
  protocols: ReadonlySet<ServeProtocol>;
  maxMessageChars: number;
  maxBodyBytes: number;
  /** CORS origins (empty: no cross-origin access). */
  corsOrigins: readonly string[];
  /**
   * On a server bound to a loopback address: the host names it answers besides the loopback ones
   * (serve.allowed_hosts); any other Host or Origin is refused (DNS rebinding protection).
   * Undefined on a server bound to another address (--allow-remote, API keys required).
   */
  loopbackHosts?: readonly string[];
  /** `ready` once the backend is initialised; /ready and protocol routes answer 503 otherwise. */
  phase: () => 'starting' | 'ready' | 'closing';
  /** The URL clients reach the server at (agent card), e.g. http://127.0.0.1:8000. */
  publicUrl: () => string;
  /** Protocol-specific state (response ids, A2A tasks), each adapter its own key. */
  readonly state: Map<string, unknown>;
}

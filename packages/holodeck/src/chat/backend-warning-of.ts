import type { BackendWarning } from '../backends/contract/index.js';
import type { ConfigWarning } from '../config/index.js';

/** An agent.yaml warning as the session-start event carries it: its code, message and field path. */
export function backendWarningOf(warning: ConfigWarning): BackendWarning {
  return {
    code: warning.code,
    message: warning.message,
    ...(warning.path === undefined ? {} : { path: warning.path }),
  };
}

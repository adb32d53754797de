import type { LoadedAgent } from '../../config/index.js';
import type { BackendWarning } from '../contract/index.js';
import { missingCredentials } from './auth-requirements.js';

/**
 * For `holodeck validate`: the credentials a run of this agent would need but this environment
 * lacks, as a warning (validation in CI often runs without secrets; the run itself fails hard).
 */
export function credentialWarnings(agent: LoadedAgent): BackendWarning[] {
  if (agent.config.model.provider !== 'anthropic') return [];
  const authProvider = agent.config.model.auth_provider ?? 'api_key';
  const missing = missingCredentials(authProvider, agent.env);
  if (!missing.length) return [];
  return [
    {
      code: 'credentials-missing',
      message: `auth_provider "${authProvider}" needs ${missing.join(', ')}, which is not set here: \`holodeck chat\` will stop until it is.`,
    },
  ];
}

import { describe, expect, it } from 'vitest';
import * as holodeck from '../../src/index.js';

describe('holodeck public API', () => {
  it('exports exactly this list, and no internals', () => {
    expect(Object.keys(holodeck).sort()).toEqual(
      [
        'AgentSessionError',
        'ConfigError',
        'CredentialError',
        'CredentialRejectedError',
        'HoloDeckError',
        'InterruptedError',
        'RuntimeMissingError',
        'UsageError',
        'WARNING_CODES',
        'agentJsonSchema',
        'backendProfile',
        'loadAgent',
        'runOneShot',
        'runTestSuite',
        'selectBackend',
        'validateAgent',
        'writeReport',
      ].sort(),
    );
  });
});

import { describe, expect, it } from 'vitest';
import * as holodeck from '../../src/index.js';

describe('holodeck public API', () => {
  it('exports exactly this list, and no internals', () => {
    expect(Object.keys(holodeck).sort()).toEqual(
      [
        'AgentSessionError',
        'ConfigError',
        'CredentialError',
        'HoloDeckError',
        'RuntimeMissingError',
        'agentJsonSchema',
        'backendProfile',
        'loadAgent',
        'runOneShot',
        'selectBackend',
        'validateAgent',
      ].sort(),
    );
  });
});

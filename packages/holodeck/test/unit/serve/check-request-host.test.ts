import { describe, expect, it } from 'vitest';
import { checkRequestHost } from '../../../src/serve/check-request-host.js';

// DNS rebinding protection of a loopback-bound `holodeck serve`.
const guard = { allowedHosts: ['agent.internal'], corsOrigins: ['https://app.example.com'] };

describe('checkRequestHost', () => {
  it('lets loopback names, allowed hosts, and allowed or loopback origins through', () => {
    for (const host of ['127.0.0.1:8000', 'localhost:8000', '[::1]:8000', 'LOCALHOST', 'agent.internal:443'])
      expect(() => checkRequestHost(guard, host, undefined)).not.toThrow();
    expect(() => checkRequestHost(guard, '127.0.0.1:8000', 'http://127.0.0.1:8000')).not.toThrow();
    expect(() => checkRequestHost(guard, '127.0.0.1:8000', 'https://app.example.com')).not.toThrow();
    expect(() => checkRequestHost(guard, '127.0.0.1:8000', 'null')).not.toThrow();
  });

  it('refuses another Host with a 403 that says how to allow a proxied name', () => {
    expect(() => checkRequestHost(guard, 'evil.example.com', undefined)).toThrow(
      'Host "evil.example.com" is not a name of this server: a server on a loopback address answers only localhost, 127.0.0.1 and ::1 (DNS rebinding protection); add the name to serve.allowed_hosts if a proxy on this machine forwards it',
    );
    expect(() => checkRequestHost(guard, undefined, undefined)).toThrow(
      'Host "" is not a name of this server',
    );
    let caught: unknown;
    try {
      checkRequestHost(guard, 'evil.example.com:8000', undefined);
    } catch (error) {
      caught = error;
    }
    expect((caught as { status?: number } | undefined)?.status).toBe(403);
  });

  it('refuses an Origin of another site', () => {
    expect(() => checkRequestHost(guard, '127.0.0.1:8000', 'http://evil.example.com')).toThrow(
      'Origin "http://evil.example.com" may not call this server: add it to serve.cors.origins to allow a browser frontend there',
    );
  });
});

import type { Context } from 'hono';
import type { Principal } from '../identity/principal.js';
import { ProblemError } from './problem-error.js';
import type { Access } from './route-spec.js';
import type { ServerServices } from './server-services.js';

const MISSING =
  'no credential: send "Authorization: Bearer <key>" with an agent key (nva_…, `novarch keys create`) or an operator token (nvo_…, `novarch operators create`)';

/**
 * Who sent the request, checked against the route's access. 401 without a valid credential (the
 * answer does not say whether a credential is unknown or revoked), 403 when it may not call the
 * route or its tenant is not served here.
 */
export async function authenticateRequest(
  context: Context,
  access: Access,
  services: ServerServices,
): Promise<Principal | undefined> {
  if (access === 'public') return undefined;
  const header = context.req.header('authorization');
  const match = header === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match?.[1]) throw new ProblemError(401, 'Unauthorized', MISSING);
  const principal = await lookUp(services, match[1]);
  if (principal === undefined)
    throw new ProblemError(
      401,
      'Unauthorized',
      'the credential is not valid here (unknown or revoked): ask an admin for a new one',
    );
  if (
    principal.kind === 'agent' &&
    services.tenants !== undefined &&
    !(principal.tenantId in services.tenants)
  )
    throw new ProblemError(
      403,
      'Forbidden',
      `tenant "${principal.tenantId}" is not served here: add it under server.tenants in novarch.yaml`,
    );
  checkAccess(principal, access);
  return principal;
}

/**
 * The credential's principal. The identity tables failing (the database restarting, unreachable)
 * is a 503 that says so: the request is refused (fail-closed) and may be sent again.
 */
async function lookUp(services: ServerServices, credential: string): Promise<Principal | undefined> {
  try {
    return await services.identities.authenticate(credential);
  } catch {
    throw new ProblemError(
      503,
      'Service Unavailable',
      'the identity store failed (the database is unreachable or restarting): nothing was done; try again',
    );
  }
}

function checkAccess(principal: Principal, access: Access): void {
  if (access === 'authenticated') return;
  if (access === 'agent' && principal.kind !== 'agent')
    throw new ProblemError(
      403,
      'Forbidden',
      'only an agent key may do this (an operator token governs no session)',
    );
  if (access === 'operator' && principal.kind !== 'operator')
    throw new ProblemError(
      403,
      'Forbidden',
      'an agent key may not decide holds or kill sessions: an operator token (nvo_…) is needed',
    );
  if (access === 'admin' && !(principal.kind === 'operator' && principal.role === 'admin'))
    throw new ProblemError(
      403,
      'Forbidden',
      'only an admin token may manage agent keys, operator tokens and rules',
    );
}

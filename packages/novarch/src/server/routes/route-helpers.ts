import { z } from 'zod';
import type { AgentPrincipal, OperatorPrincipal } from '../../identity/principal.js';
import { ProblemError } from '../problem-error.js';
import type { RouteRequest } from '../route-spec.js';
import type { TenantScopedStore } from '../tenant-scoped-store.js';

/** How the operations shared with the CLI name the store in their messages. */
export const SERVER_STORE_LABEL = 'this server';

/** Path parameters: one id each. */
export const SessionParams = z.object({ sessionId: z.string().min(1) });
export const HoldParams = z.object({ holdId: z.string().min(1) });
export const SessionActionParams = z.object({ sessionId: z.string().min(1), actionId: z.string().min(1) });
export const IdParams = z.object({ id: z.string().min(1) });

export const OkSchema = z.object({ status: z.literal('ok') });

/** The caller's view of the store (every non-public route has one). */
export function scopedOf(request: RouteRequest<unknown, unknown, unknown>): TenantScopedStore {
  if (request.scoped === undefined) throw new ProblemError(401, 'Unauthorized', 'no credential');
  return request.scoped;
}

export function agentOf(request: RouteRequest<unknown, unknown, unknown>): AgentPrincipal {
  if (request.principal?.kind !== 'agent') throw new ProblemError(403, 'Forbidden', 'an agent key is needed');
  return request.principal;
}

export function operatorOf(request: RouteRequest<unknown, unknown, unknown>): OperatorPrincipal {
  if (request.principal?.kind !== 'operator')
    throw new ProblemError(403, 'Forbidden', 'an operator token is needed');
  return request.principal;
}

/** The request went away, or the server shuts down. */
export function requestSignal(request: RouteRequest<unknown, unknown, unknown>): AbortSignal {
  return AbortSignal.any([request.context.req.raw.signal, request.services.shutdown]);
}

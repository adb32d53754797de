import { z } from 'zod';
import type { AgentKeyInfo, NewAgentKey } from '../identity/agent-keys.js';
import type { Created } from '../identity/identity-secrets.js';
import type { IdentityStore } from '../identity/identity-store.js';
import type { NewOperatorToken, OperatorTokenInfo } from '../identity/operator-tokens.js';
import { formatGrant } from '../identity/principal.js';
import {
  AgentKeyInfoSchema,
  CreatedKeySchema,
  CreatedOperatorSchema,
  OperatorTokenInfoSchema,
} from '../wire/identity-schemas.js';
import { type NovarchHttpClient, NovarchServerError } from './novarch-http-client.js';

/** What `novarch keys` and `novarch operators` do, on a local store or on a server. */
export type IdentityOperations = Pick<
  IdentityStore,
  | 'createAgentKey'
  | 'listAgentKeys'
  | 'revokeAgentKey'
  | 'createOperatorToken'
  | 'listOperatorTokens'
  | 'revokeOperatorToken'
>;

/**
 * The identity operations done by a server's `/v1/admin` routes under an admin token: the server
 * shows and changes only the keys and tokens within the token's grants (others are 404, as unknown
 * ids are). A credential is created once: its request is never repeated after a timeout.
 */
export class RemoteIdentities implements IdentityOperations {
  readonly #client: NovarchHttpClient;

  constructor(client: NovarchHttpClient) {
    this.#client = client;
  }

  async createAgentKey(options: NewAgentKey): Promise<Created<AgentKeyInfo>> {
    const created = await this.#client.request('POST', '/v1/admin/keys', {
      body: {
        tenantId: options.tenantId,
        name: options.name,
        ...(options.agentId === undefined ? {} : { agentId: options.agentId }),
        ...(options.teamIds === undefined ? {} : { teamIds: [...options.teamIds] }),
      },
      schema: CreatedKeySchema,
    });
    return { info: keyInfo(created.key), secret: created.secret };
  }

  async listAgentKeys(filter: { tenants?: ReadonlySet<string> | undefined } = {}): Promise<AgentKeyInfo[]> {
    const keys = await this.#client.request('GET', '/v1/admin/keys', {
      schema: z.array(AgentKeyInfoSchema),
      idempotent: true,
    });
    return keys
      .map(keyInfo)
      .filter((key) => filter.tenants === undefined || filter.tenants.has(key.tenantId));
  }

  revokeAgentKey(id: string): Promise<AgentKeyInfo | undefined> {
    return unlessUnknown(
      this.#client
        .request('POST', `/v1/admin/keys/${encodeURIComponent(id)}/revoke`, { schema: AgentKeyInfoSchema })
        .then(keyInfo),
    );
  }

  async createOperatorToken(options: NewOperatorToken): Promise<Created<OperatorTokenInfo>> {
    const created = await this.#client.request('POST', '/v1/admin/operators', {
      body: {
        name: options.name,
        role: options.role,
        grants: options.grants.map(formatGrant),
        ...(options.groups === undefined || options.groups.length === 0 ? {} : { groups: options.groups }),
        ...(options.notForKeys === undefined || options.notForKeys.length === 0
          ? {}
          : { notForKeys: options.notForKeys }),
      },
      schema: CreatedOperatorSchema,
    });
    return { info: tokenInfo(created.token), secret: created.secret };
  }

  async listOperatorTokens(): Promise<OperatorTokenInfo[]> {
    const tokens = await this.#client.request('GET', '/v1/admin/operators', {
      schema: z.array(OperatorTokenInfoSchema),
      idempotent: true,
    });
    return tokens.map(tokenInfo);
  }

  revokeOperatorToken(id: string): Promise<OperatorTokenInfo | undefined> {
    return unlessUnknown(
      this.#client
        .request('POST', `/v1/admin/operators/${encodeURIComponent(id)}/revoke`, {
          schema: OperatorTokenInfoSchema,
        })
        .then(tokenInfo),
    );
  }
}

/** A 404 is an id the caller does not see: `undefined`, as the local store answers an unknown id. */
async function unlessUnknown<T>(answer: Promise<T>): Promise<T | undefined> {
  try {
    return await answer;
  } catch (error) {
    if (error instanceof NovarchServerError && error.status === 404) return undefined;
    throw error;
  }
}

function keyInfo(key: z.output<typeof AgentKeyInfoSchema>): AgentKeyInfo {
  return {
    id: key.id,
    tenantId: key.tenantId,
    name: key.name,
    ...(key.agentId === undefined ? {} : { agentId: key.agentId }),
    ...(key.teamIds === undefined ? {} : { teamIds: key.teamIds }),
    createdAt: key.createdAt,
    ...(key.revokedAt === undefined ? {} : { revokedAt: key.revokedAt }),
  };
}

function tokenInfo(token: z.output<typeof OperatorTokenInfoSchema>): OperatorTokenInfo {
  return {
    id: token.id,
    name: token.name,
    role: token.role,
    grants: token.grants.map((grant) =>
      grant.teamId === undefined
        ? { tenantId: grant.tenantId }
        : { tenantId: grant.tenantId, teamId: grant.teamId },
    ),
    ...(token.groups === undefined ? {} : { groups: token.groups }),
    ...(token.notForKeys === undefined ? {} : { notForKeys: token.notForKeys }),
    createdAt: token.createdAt,
    ...(token.revokedAt === undefined ? {} : { revokedAt: token.revokedAt }),
  };
}

import type { z } from 'zod';
import { OperatorUsageError } from '../../../errors.js';
import { type RulesService, StoreRulesService } from '../../../operations/rules-service.js';
import { ServerRulesService } from '../../../remote/server-rules-service.js';
import {
  type GlobalOptionsSchema,
  type OperatorContext,
  operatorName,
  serverClient,
} from '../operator-context.js';
import { onRulesStore } from './rules-store.js';

/**
 * The rules a `novarch rules` command works on: a server's with `--server` (the tenant from
 * `--tenant`, required when `needsTenant`), else the store's (`--tenant` refused: a store's rules
 * pushed directly have no tenant).
 */
export function rulesServiceFor(
  command: string,
  options: z.output<typeof GlobalOptionsSchema> & {
    tenant?: string | undefined;
    operator?: string | undefined;
  },
  context: OperatorContext,
  needsTenant: boolean,
): RulesService {
  const server = serverClient(options, context);
  const tenant = options.tenant?.trim() || undefined;
  if (server === undefined) {
    if (options.tenant !== undefined)
      throw new OperatorUsageError(
        `novarch rules ${command}: --tenant works with --server only: rules pushed to a store directly have no tenant (a server applies them to that team of every tenant without its own). Add --server URL, or drop --tenant.`,
      );
    return new StoreRulesService(
      (work) => onRulesStore(options, context, work),
      () => {
        const pushedBy = operatorName(options.operator, context);
        if (pushedBy.trim() === '')
          throw new OperatorUsageError('No operator name: pass --operator NAME (or set $USER).');
        return pushedBy;
      },
    );
  }
  if (needsTenant && tenant === undefined)
    throw new OperatorUsageError(
      `novarch rules ${command} --server: pass --tenant TENANT, the tenant whose team's rules these are (a server keeps each tenant's rules apart).`,
    );
  return new ServerRulesService(server.client.url, tenant, (work) =>
    server.call((client) => work(client.rules())),
  );
}

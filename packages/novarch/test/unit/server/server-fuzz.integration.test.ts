import { afterAll, beforeAll, describe, it } from 'vitest';
import { expectFuzzClean } from '../../server-support/fuzz-routes.js';
import { usePostgresServer } from '../../store/postgres-server.js';
import { createServerWorld, type ServerWorld } from './server-fixture.js';

// The same generated requests on PostgreSQL, where NUL characters and invalid times used to fail
// in the database (503) rather than at the edge (400).

const postgres = usePostgresServer();
let world: ServerWorld;
beforeAll(async () => {
  world = await createServerWorld({ storeUrl: await postgres.freshDatabase() });
});
afterAll(() => world.close());

describe('the server under generated requests (PostgreSQL)', () => {
  it('answers every one with a documented status and never 5xx', async () => {
    await expectFuzzClean(world, 40, 20_261_202);
  }, 180_000);
});

import { afterAll, beforeAll, describe, it } from 'vitest';
import { expectFuzzClean } from '../../server-support/fuzz-routes.js';
import { createServerWorld, type ServerWorld } from './server-fixture.js';

// Generated requests over every route on SQLite: no 5xx, every status one the OpenAPI document
// gives for its operation (the PostgreSQL run: server-fuzz.integration.test.ts).

let world: ServerWorld;
beforeAll(async () => {
  world = await createServerWorld();
});
afterAll(() => world.close());

describe('the server under generated requests (SQLite)', () => {
  it('answers every one with a documented status and never 5xx', async () => {
    await expectFuzzClean(world, 40, 20_261_201);
  }, 120_000);
});

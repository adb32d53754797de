import { readFileSync } from 'node:fs';
import { z } from 'zod';

const fixtureSchema = z.object({
  note: z.string(),
  path: z.string(),
  headers: z.record(z.string(), z.string()),
  body: z.record(z.string(), z.unknown()),
});

/** A request the real CLI 2.1.332 sent, captured from the fake server's log. */
export type CliRequestFixture = z.infer<typeof fixtureSchema>;

/** Loads `test/fixtures/cli-2.1.332/<name>.json`. */
export function loadCliFixture(name: string): CliRequestFixture {
  const url = new URL(`../fixtures/cli-2.1.332/${name}.json`, import.meta.url);
  return fixtureSchema.parse(JSON.parse(readFileSync(url, 'utf8')));
}

// An agent process for the gate e2e tests, run as `node --import tsx gate-agent-child.ts <directory>
// <fake model URL> <hold window s> <refunds file>`: it opens the store file `novarch.db` in the
// directory and runs one governed query of the gate fixture through the real CLI. Refunds that
// really execute are appended to the refunds file. It prints one JSON object per line on stdout.
import { createGateWorld } from './gate-fixture.js';

function say(event: string, data: Record<string, unknown> = {}): void {
  process.stdout.write(`${JSON.stringify({ event, ...data })}\n`);
}

const [directory, baseUrl, holdWindow, refundsFile] = process.argv.slice(2);
if (directory === undefined || baseUrl === undefined || holdWindow === undefined || refundsFile === undefined)
  throw new Error('usage: gate-agent-child <directory> <fake model URL> <hold window s> <refunds file>');
const world = await createGateWorld(Number(holdWindow), { directory, refundsFile });
say('opened', { storeFile: world.storeFile });
try {
  const gate = await world.run(baseUrl);
  say('done', { killed: gate.killed, refunds: world.refunds });
} finally {
  await world.close();
}

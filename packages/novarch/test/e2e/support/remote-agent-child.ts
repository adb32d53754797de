// An agent process governed by a Novarch server, run as `node --import tsx remote-agent-child.ts
// <directory> <fake model URL>`, with NOVARCH_SERVER and NOVARCH_API_KEY in its environment (as
// an agent on another machine has them) and its own HOME. It runs one governed query of the gate
// fixture through the real SDK and CLI; every refund that really executes is printed. It prints
// one JSON object per line on stdout.
import {
  API_KEY_ENV_VARIABLE,
  remoteEngine,
  SERVER_ENV_VARIABLE,
} from '../../../src/remote/remote-engine.js';
import { createGateWorld } from './gate-fixture.js';

function say(event: string, data: Record<string, unknown> = {}): void {
  process.stdout.write(`${JSON.stringify({ event, ...data })}\n`);
}

const [directory, baseUrl] = process.argv.slice(2);
const url = process.env[SERVER_ENV_VARIABLE];
const apiKey = process.env[API_KEY_ENV_VARIABLE];
if (directory === undefined || baseUrl === undefined || url === undefined || apiKey === undefined)
  throw new Error(
    'usage: NOVARCH_SERVER=URL NOVARCH_API_KEY=KEY remote-agent-child <directory> <fake model URL>',
  );
const world = await createGateWorld(5, { directory, engine: remoteEngine({ url, apiKey }) });
try {
  const gate = await world.run(baseUrl, {
    onGate: (opened) => say('opened', { sessionId: opened.sessionId }),
  });
  say('done', { killed: gate.killed, refunds: world.refunds, home: process.env.HOME });
} finally {
  await world.close();
}

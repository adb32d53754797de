import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { listenHttp } from '../../src/listen-http.js';

let taken: Server;
let port = 0;
beforeAll(async () => {
  taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  const address = taken.address();
  port = typeof address === 'object' && address ? address.port : 0;
});
afterAll(() => new Promise<void>((resolve) => taken.close(() => resolve())));

it('names the flag and the command hint when the port is in use', async () => {
  const error = await listenHttp(() => new Response('x'), '127.0.0.1', port, 'pick another').catch((e) => e);
  expect(error).toBeInstanceOf(UsageError);
  expect(error.message).toBe(`--port: port ${port} on 127.0.0.1 is in use\n    hint: pick another`);
});

it('serves on a free port', async () => {
  const server = await listenHttp(() => new Response('served'), '127.0.0.1', 0, 'pick another');
  const address = server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/`;
  expect(await (await fetch(url)).text()).toBe('served');
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

#!/usr/bin/env node
// @ts-check
// `holodeck serve` measured against the backend contract in process, side by side in one run,
// both against one fake model server: time to first token (TTFT) and turn latency per protocol
// (REST SSE, OpenAI Responses stream, AG-UI, MCP, A2A), each a warm session's next turn; then 50
// concurrent AI SDK sessions, and on Claude the session cap under load and the memory of a live
// session. Prints medians and the ratio serve / in process; exits 0 whatever the verdict. See
// bench/README.md.
//
//   node bench/serve.mjs [--samples 12] [--backend ai-sdk|claude|both] [--concurrent 50]
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { median, table } from './bench-format.mjs';
import { PROTOCOLS } from './fake-model-protocols.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const holodeckBin = path.join(root, 'packages/holodeck/bin/holodeck.js');
const ANSWER = 'The benchmark reply is 42.';
const TARGET_RATIO = 1.05;
const TARGET_EXTRA_MS = 5;

const { values } = parseArgs({
  options: {
    samples: { type: 'string', default: '12' },
    backend: { type: 'string', default: 'both' },
    concurrent: { type: 'string', default: '50' },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (values.help) {
  process.stdout.write(
    'usage: node bench/serve.mjs [--samples N (12)] [--backend ai-sdk|claude|both] [--concurrent N (50)]\n',
  );
  process.exit(0);
}
const samples = Number(values.samples);
const concurrent = Number(values.concurrent);
const backends = values.backend === 'both' ? ['ai-sdk', 'claude'] : [values.backend];

async function agentFolder(provider, fake, serve = {}) {
  const directory = await mkdtemp(path.join(os.tmpdir(), 'holodeck-bench-serve-'));
  const home = path.join(directory, 'home');
  await mkdir(home);
  const model =
    provider === 'openai'
      ? `model: { provider: openai, name: gpt-4o-mini, endpoint: "${fake.baseUrl}" }`
      : 'model: { provider: anthropic, name: claude-sonnet-4-5 }';
  const serveBlock = Object.keys(serve).length ? `serve: ${JSON.stringify(serve)}\n` : '';
  await writeFile(
    path.join(directory, 'agent.yaml'),
    `name: bench-agent\n${model}\ninstructions: { inline: "You are the benchmark agent. Answer briefly." }\n${serveBlock}`,
  );
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    NO_COLOR: '1',
    CLAUDE_CODE_MAX_RETRIES: '0',
    ...PROTOCOLS[provider].env(fake),
  };
  return { directory, file: path.join(directory, 'agent.yaml'), env };
}

function startServe(agent) {
  const child = spawn(process.execPath, [holodeckBin, 'serve', agent.file, '--port', '0'], {
    env: agent.env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start:\n${stderr}`)), 60_000);
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      const match = /serving .* at (http:\/\/\S+?)\/? \(/.exec(stderr);
      if (match) {
        clearTimeout(timer);
        resolve({ url: match[1].replace(/\/$/, ''), child });
      }
    });
    child.on('exit', (code) => reject(new Error(`serve exited ${code}:\n${stderr}`)));
  });
}

/** Reads an SSE body; calls onData with each data: payload; resolves at the end. */
async function readSse(response, onData) {
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = block
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .map((line) => line.slice(6))
        .join('\n');
      if (data) onData(JSON.parse(data));
    }
  }
}

const post = (url, body, headers = {}) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

/**
 * A response's JSON body; the bench reads only fields its own server writes.
 * @param {Response} response
 * @returns {Promise<any>}
 */
const readJson = (response) => response.json();

/** One timed turn through each protocol: { ttft, total } in ms. */
function protocolTurns(url) {
  let restSession;
  let responseId;
  const threadId = randomUUID();
  let mcpSession;
  let contextId;
  const timed = async (run) => {
    const started = performance.now();
    let first;
    const mark = () => {
      first ??= performance.now();
    };
    await run(mark);
    const ended = performance.now();
    return { ttft: (first ?? ended) - started, total: ended - started };
  };
  return {
    'REST (SSE)': async () => {
      restSession ??= (await readJson(await post(`${url}/v1/sessions`, {}))).id;
      return timed(async (mark) => {
        const response = await post(
          `${url}/v1/sessions/${restSession}/messages`,
          { message: 'What is the benchmark reply?' },
          { accept: 'text/event-stream' },
        );
        await readSse(response, (event) => event.type === 'text-delta' && mark());
      });
    },
    'Responses (stream)': () =>
      timed(async (mark) => {
        const response = await post(`${url}/v1/responses`, {
          model: 'agent',
          input: 'What is the benchmark reply?',
          stream: true,
          ...(responseId ? { previous_response_id: responseId } : {}),
        });
        await readSse(response, (event) => {
          if (event.type === 'response.output_text.delta') mark();
          if (event.type === 'response.completed') responseId = event.response.id;
        });
      }),
    'AG-UI': () =>
      timed(async (mark) => {
        const response = await post(
          `${url}/ag-ui`,
          {
            threadId,
            runId: randomUUID(),
            messages: [{ id: randomUUID(), role: 'user', content: 'What is the benchmark reply?' }],
          },
          { accept: 'text/event-stream' },
        );
        await readSse(response, (event) => event.type === 'TEXT_MESSAGE_CONTENT' && mark());
      }),
    'MCP (tools/call)': () =>
      timed(async (mark) => {
        const response = await post(
          `${url}/mcp`,
          {
            jsonrpc: '2.0',
            id: 1,
            method: 'tools/call',
            params: {
              name: 'ask_bench_agent',
              arguments: {
                message: 'What is the benchmark reply?',
                ...(mcpSession ? { session_id: mcpSession } : {}),
              },
            },
          },
          { accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
        );
        await readSse(response, (event) => {
          mark();
          mcpSession ??= event.result?.structuredContent?.session_id;
        });
      }),
    'A2A (SendMessage)': () =>
      timed(async (mark) => {
        const response = await post(
          `${url}/a2a`,
          {
            jsonrpc: '2.0',
            id: 1,
            method: 'SendMessage',
            params: {
              message: {
                messageId: randomUUID(),
                role: 'ROLE_USER',
                parts: [{ text: 'What is the benchmark reply?' }],
                ...(contextId ? { contextId } : {}),
              },
            },
          },
          { 'a2a-version': '1.0' },
        );
        const body = await readJson(response);
        mark();
        contextId ??= body.result?.task?.contextId;
        if (!body.result) throw new Error(`A2A failed: ${JSON.stringify(body)}`);
      }),
  };
}

/** The same turn through the contract in process: a warm session of the backend. */
async function inProcessTurns(agent) {
  const { loadAgent } = await import(path.join(root, 'packages/holodeck/dist/load-agent.js'));
  const { selectBackend } = await import(
    path.join(root, 'packages/holodeck/dist/backends/select-backend.js')
  );
  const saved = { ...process.env };
  Object.assign(process.env, agent.env);
  const loaded = await loadAgent(agent.file, { env: agent.env, homeDir: agent.env.HOME });
  const backend = selectBackend(loaded);
  await backend.initialize();
  const session = await backend.createSession({ approvals: 'ask' });
  return {
    run: async () => {
      const started = performance.now();
      let first;
      for await (const event of session.sendStreaming('What is the benchmark reply?')) {
        if (event.type === 'text-delta') first ??= performance.now();
      }
      const ended = performance.now();
      return { ttft: (first ?? ended) - started, total: ended - started };
    },
    close: async () => {
      await session.close();
      await backend.teardown();
      process.env = saved;
    },
  };
}

function claudeRss(pid) {
  const found = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const command = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (/claude/.test(command) && isDescendant(Number(entry), pid)) {
        const rss = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${entry}/status`, 'utf8'));
        if (rss) found.push(Number(rss[1]) / 1024);
      }
    } catch {
      // the process ended while being read
    }
  }
  return found;
}
function isDescendant(pid, root) {
  for (let current = pid, depth = 0; current > 1 && depth < 10; depth += 1) {
    if (current === root) return true;
    try {
      const stat = readFileSync(`/proc/${current}/stat`, 'utf8');
      current = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    } catch {
      return false;
    }
  }
  return false;
}

const fmt = (ms) => ms.toFixed(1);

for (const backend of backends) {
  const provider = backend === 'claude' ? 'anthropic' : 'openai';
  const fake = await PROTOCOLS[provider].start({ answer: ANSWER, latencyMs: 0, onRequest: () => {} });
  const agent = await agentFolder(provider, fake);
  process.stdout.write(`\n## ${backend} backend (${samples} samples per row, after 1 warm-up)\n\n`);
  const server = await startServe(agent);
  const turns = protocolTurns(server.url);
  const inProcess = await inProcessTurns(agent);
  await inProcess.run();
  /** @returns {{ ttft: number[], total: number[] }} */
  const series = () => ({ ttft: [], total: [] });
  const base = series();
  const measured = Object.fromEntries(Object.keys(turns).map((name) => [name, series()]));
  for (const name of Object.keys(turns)) await turns[name]();
  for (let sample = 0; sample < samples; sample += 1) {
    const own = await inProcess.run();
    base.ttft.push(own.ttft);
    base.total.push(own.total);
    for (const [name, run] of Object.entries(turns)) {
      const result = await run();
      measured[name].ttft.push(result.ttft);
      measured[name].total.push(result.total);
    }
  }
  await inProcess.close();
  const baseTtft = median(base.ttft);
  const baseTotal = median(base.total);
  const rows = [['contract in process', fmt(baseTtft), fmt(baseTotal), '1.00', '+0.0', '']];
  for (const [name, values] of Object.entries(measured)) {
    const total = median(values.total);
    const ratio = total / baseTotal;
    const extra = total - baseTotal;
    const ok = ratio <= TARGET_RATIO || extra <= TARGET_EXTRA_MS;
    rows.push([
      name,
      fmt(median(values.ttft)),
      fmt(total),
      ratio.toFixed(2),
      `${extra >= 0 ? '+' : ''}${fmt(extra)}`,
      ok ? 'ok' : 'over',
    ]);
  }
  process.stdout.write(
    `${table(['path', 'TTFT ms', 'turn ms', 'ratio', 'extra ms', `≤${TARGET_RATIO}× or ≤${TARGET_EXTRA_MS} ms`], rows)}\n`,
  );

  if (backend === 'ai-sdk') {
    const started = performance.now();
    const statuses = await Promise.all(
      Array.from({ length: concurrent }, async () => {
        const created = await post(`${server.url}/v1/sessions`, {});
        if (created.status !== 201) return created.status;
        const { id } = await readJson(created);
        const answered = await post(`${server.url}/v1/sessions/${id}/messages`, {
          message: 'What is the benchmark reply?',
        });
        const body = await readJson(answered);
        return answered.status === 200 && body.response === ANSWER ? 200 : answered.status;
      }),
    );
    const counts = countStatuses(statuses);
    process.stdout.write(
      `\n${concurrent} concurrent sessions (create + one turn each): ${JSON.stringify(counts)} in ${fmt(performance.now() - started)} ms\n`,
    );
  } else {
    const idle = claudeRss(server.child.pid);
    process.stdout.write(
      `\nlive Claude sessions after the protocol rows: ${idle.length}, RSS per CLI process ${idle.map((mb) => mb.toFixed(0)).join(', ')} MB\n`,
    );
  }
  server.child.kill('SIGTERM');
  await new Promise((resolve) => server.child.on('exit', resolve));

  if (backend === 'claude') {
    // The cap under load: max_sessions 3, 6 clients at once.
    const capped = await agentFolder(provider, fake, { max_sessions: 3 });
    const cappedServer = await startServe(capped);
    const statuses = await Promise.all(
      Array.from({ length: 6 }, async () => {
        const created = await post(`${cappedServer.url}/v1/sessions`, {});
        if (created.status !== 201) return created.status;
        const { id } = await readJson(created);
        const answered = await post(`${cappedServer.url}/v1/sessions/${id}/messages`, {
          message: 'What is the benchmark reply?',
        });
        return answered.status;
      }),
    );
    const counts = countStatuses(statuses);
    const rss = claudeRss(cappedServer.child.pid);
    process.stdout.write(
      `session cap (max_sessions 3, 6 clients at once): ${JSON.stringify(counts)}; ${rss.length} claude processes, ${rss.map((mb) => mb.toFixed(0)).join(', ')} MB RSS each\n`,
    );
    cappedServer.child.kill('SIGTERM');
    await new Promise((resolve) => cappedServer.child.on('exit', resolve));
    await rm(capped.directory, { recursive: true, force: true });
  }
  await fake.close();
  await rm(agent.directory, { recursive: true, force: true });
}

/** How many times each HTTP status occurs. */
function countStatuses(statuses) {
  const counts = {};
  for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

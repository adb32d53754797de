// @ts-check
// gate-overhead: through the real Claude CLI against the fake model server.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createSdkMcpServer, query, tool } from '@anthropic-ai/claude-agent-sdk';
import { fakeCliEnv, reply, startFakeAnthropic, toolResults, toolUse } from '@holodeck/testkit';
import { z } from 'zod';
import { baselineHooks, checkEvidence, checkPassedWrite, openWorld } from './hook-level.mjs';
import { progress } from './measure.mjs';
import {
  BenchError,
  GATE_OPTIONS,
  LOOKUP,
  lookupOutput,
  REFUND,
  REFUND_AMOUNT,
  refundOutput,
  SCOPE,
} from './options.mjs';

// ---------------------------------------------------------------- through the real CLI

/**
 * One agent run through query(): K lookups, then one refund of the first customer, then a reply.
 * A timing hook (first matcher of each event, so it runs before the gate's) records when the CLI
 * asked the PreToolUse and PostToolUse hooks; the MCP tools record when they ran; the fake server
 * records when each model request arrived. All on this process's clock.
 */
export async function cliRun({ novarch, engine, store, server, home, mode, reads, sample }) {
  const gated = mode === 'gated';
  const customers = Array.from({ length: reads }, (_, index) => `K-${sample}-${mode}-${index}`);
  const target = customers[0];
  const steps = customers.map((customer, index) =>
    toolUse(LOOKUP, { customer_id: customer }, { id: `toolu_lookup_${index}` }),
  );
  steps.push(
    toolUse(
      REFUND,
      { customer_id: target, amount: REFUND_AMOUNT, reasoning: 'the customer asked' },
      { id: 'toolu_refund' },
    ),
    reply('done'),
  );
  server.reset();
  server.script(...steps);

  const marks = new Map(); // tool_use_id -> { pre, post, toolStart, toolEnd }
  const mark = (id, name) => {
    const entry = marks.get(id) ?? {};
    if (entry[name] !== undefined) throw new BenchError(`tool call ${id}: ${name} seen twice`);
    entry[name] = performance.now();
    marks.set(id, entry);
  };
  const toolRuns = [];
  const timingHook = (name) => async (input) => {
    mark(input.tool_use_id, name);
    return {};
  };
  const mcp = createSdkMcpServer({
    name: 'cs',
    tools: [
      tool('lookup_customer', 'Look up a customer', { customer_id: z.string() }, async ({ customer_id }) => {
        toolRuns.push({ tool: 'lookup', customer_id, at: performance.now(), wall: Date.now() });
        return lookupOutput(customer_id);
      }),
      tool(
        'issue_refund',
        'Issue a refund',
        { customer_id: z.string(), amount: z.number(), reasoning: z.string().optional() },
        async ({ customer_id, amount }) => {
          toolRuns.push({ tool: 'refund', customer_id, amount, at: performance.now(), wall: Date.now() });
          return refundOutput(customer_id, amount);
        },
      ),
    ],
  });

  const runQuery = async (gate) => {
    const hooks = {
      PreToolUse: [{ hooks: [timingHook('pre')] }],
      PostToolUse: [{ hooks: [timingHook('post')] }],
    };
    // the gate's matchers, or no-op matchers of the same shape, after the timing hook
    const extra = gate ? gate.hooksConfig() : mode === 'noop' ? baselineHooks() : undefined;
    if (extra) {
      hooks.PreToolUse.push(...extra.PreToolUse);
      hooks.PostToolUse.push(...extra.PostToolUse);
      hooks.PostToolUseFailure = extra.PostToolUseFailure;
    }
    let result;
    const startedAt = performance.now();
    for await (const message of query({
      prompt: 'Help the customer.',
      options: {
        env: fakeCliEnv({ baseUrl: server.url, home }),
        tools: [],
        settingSources: [],
        thinking: { type: 'disabled' },
        mcpServers: { cs: mcp },
        permissionMode: 'bypassPermissions',
        allowDangerouslySkipPermissions: true,
        hooks,
      },
    })) {
      if (message.type === 'result') result = message;
    }
    const totalMs = performance.now() - startedAt;
    if (result?.subtype !== 'success' || result.is_error)
      throw new BenchError(`${mode} run failed: ${JSON.stringify(result ?? 'no result').slice(0, 400)}`);
    return totalMs;
  };

  let totalMs;
  let sessionId;
  if (gated) {
    totalMs = await novarch.augur.session({ ...SCOPE, engine }, async () => {
      const gate = await new novarch.NovarchHookGate(GATE_OPTIONS).open();
      try {
        sessionId = novarch.augur.current().record.id;
        const ms = await runQuery(gate);
        if (gate.killed) throw new BenchError('gated run: the session latched');
        return ms;
      } finally {
        await gate.close();
      }
    });
  } else {
    totalMs = await runQuery(undefined);
  }

  // ---- correctness
  const label = `${SIDE_LABELS[mode]} run ${sample}`;
  try {
    server.assertComplete();
  } catch (error) {
    throw new BenchError(
      `${label}: the fake server: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (server.requests.length !== reads + 2)
    throw new BenchError(`${label}: ${server.requests.length} model requests, expected ${reads + 2}`);
  const results = toolResults(server.requests.at(-1));
  const bad = results.filter((sent) => sent.isError || sent.text.includes('Novarch'));
  if (results.length !== reads + 1 || bad.length)
    throw new BenchError(
      `${label}: the model saw ${results.length} tool results (expected ${reads + 1})${bad.length ? `; refused or failed: ${bad.map((sent) => `${sent.toolUseId}: ${sent.text}`).join('; ')}` : ''}`,
    );
  const ran = toolRuns.map((run) => `${run.tool}(${run.customer_id})`).join(',');
  const expected = [...customers.map((customer) => `lookup(${customer})`), `refund(${target})`].join(',');
  if (ran !== expected) throw new BenchError(`${label}: tools ran [${ran}], expected [${expected}]`);
  const ids = [
    ...steps.slice(0, -1).map((_, index) => (index < reads ? `toolu_lookup_${index}` : 'toolu_refund')),
  ];
  for (const id of ids) {
    const entry = marks.get(id);
    if (entry?.pre === undefined || entry.post === undefined)
      throw new BenchError(`${label}: the timing hook missed ${id} (${JSON.stringify(entry)})`);
  }
  if (gated) {
    await checkEvidence(store, sessionId, customers, label);
    await checkPassedWrite(store, sessionId, target, toolRuns.at(-1).wall, label);
  }

  // ---- per tool call: pre hook -> tool -> post hook -> next model request (the tool result sent)
  const requestAt = server.requests.map((request) => {
    const at = requestTimes.get(request);
    if (at === undefined) throw new BenchError(`${label}: a model request has no arrival time`);
    return at;
  });
  const calls = ids.map((id, index) => {
    const { pre, post } = marks.get(id);
    const toolAt = toolRuns[index].at;
    const next = requestAt[index + 1];
    return { preToTool: toolAt - pre, postToNext: next - post, cycle: next - pre };
  });
  return { totalMs, reads: calls.slice(0, reads), write: calls[reads] };
}

export const requestTimes = new WeakMap();

export const SIDE_LABELS = { gated: 'gated', noop: 'no-op hooks', none: 'no hooks' };

export async function cliLevel(novarch, dir, options) {
  const world = await openWorld(novarch, dir);
  const server = await startFakeAnthropic({
    onRequest: (request) => requestTimes.set(request, performance.now()),
  });
  const names = Object.keys(SIDE_LABELS);
  const homes = Object.fromEntries(names.map((name) => [name, path.join(dir, `home-${name}`)]));
  for (const home of Object.values(homes)) await mkdir(home);
  const sides = Object.fromEntries(names.map((name) => [name, { runs: /** @type {any[]} */ ([]) }]));
  const total = options.warmup + options.samples;
  try {
    for (let index = 0; index < total; index++) {
      // one run of each side per round, one after the other; the order rotates every round
      const order = names.map((_, position) => names[(position + index) % names.length]);
      for (const name of order) {
        progress(
          `through the CLI: ${index < options.warmup ? 'warm-up' : 'sample'} ${index + 1}/${total} ${name}`,
        );
        const run = await cliRun({
          novarch,
          engine: world.engine,
          store: world.store,
          server,
          home: homes[name],
          mode: name,
          reads: options.cliReads,
          sample: index,
        });
        if (index >= options.warmup) sides[name].runs.push(run);
      }
    }
  } finally {
    await server.close();
    await world.store.close();
  }
  progress('');
  return sides;
}

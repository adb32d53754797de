#!/usr/bin/env node
// @ts-check
// The HTML report and the view server on a big run: 1,000 cases × 3 attempts (realistic text:
// answers, a tool call with its result, six metrics with reasons, a judge's rationale).
// Measures the report file's size (target ≤ 5 MB), the time until its run page is usable in
// Chromium opened from file:// (target ≤ 1 s: the table drawn, median of 5 loads), and the
// memory of `holodeck test view` serving it (peak RSS after the runs page and the run page).
//
//   npm run build && node bench/view-report.mjs [--cases 1000] [--attempts 3] [--loads 5]
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { launchChromium } from '@holodeck/testkit/browser';
import { writeJsonReport } from '../packages/holodeck/dist/runner/report/write-json-report.js';
import { writeHtmlReport } from '../packages/holodeck/dist/view/write-html-report.js';

const { values } = parseArgs({
  options: {
    cases: { type: 'string', default: '1000' },
    attempts: { type: 'string', default: '3' },
    loads: { type: 'string', default: '5' },
  },
});
const CASES = Number(values.cases);
const ATTEMPTS = Number(values.attempts);
const LOADS = Number(values.loads);
const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

const usage = (prompt, completion) => ({
  prompt_tokens: prompt,
  completion_tokens: completion,
  total_tokens: prompt + completion,
  cache_read_tokens: 0,
  cache_creation_tokens: 0,
});

function metric(name, type, score, threshold, reason) {
  return { name, type, score, threshold, passed: score >= threshold, reason };
}

function attempt(caseIndex, number) {
  const passed = (caseIndex + number) % 7 !== 0;
  const orderId = `A-${String(1000 + (caseIndex % 9000)).padStart(4, '0')}`;
  const metrics = [
    metric(
      'contains',
      'contains',
      passed ? 1 : 0,
      1,
      passed ? 'the response contains "shipped"' : 'the response does not contain "shipped"',
    ),
    metric(
      'rouge',
      'rouge',
      passed ? 0.82 : 0.41,
      0.6,
      `rougeL ${passed ? '0.820' : '0.410'} vs threshold 0.6`,
    ),
    metric('bleu', 'bleu', passed ? 0.66 : 0.22, 0.4, `bleu ${passed ? '0.660' : '0.220'} vs threshold 0.4`),
    metric('latency', 'latency', 1, 1, `${1200 + caseIndex} ms within 60000 ms`),
    metric(
      'politeness',
      'g-eval',
      passed ? 0.9 : 0.3,
      0.7,
      passed
        ? 'The answer is polite and specific: it names the order, its carrier and the total, and thanks the customer.'
        : 'The answer is curt and does not say where the order is; it never names the carrier or a delivery date, which the criteria require.',
    ),
    metric(
      'tool-calls',
      'tool-calls',
      1,
      1,
      `all 1 tool expectation(s) met (called: mcp__holodeck_tools__lookup_order)`,
    ),
  ];
  return {
    attempt: number,
    passed,
    response: `Your order ${orderId} has shipped with DHL on Monday; the total was $54.90. You can follow it with the tracking number in your confirmation email. Is there anything else I can help with?`,
    tool_calls: [
      {
        name: 'mcp__holodeck_tools__lookup_order',
        arguments: { order_id: orderId },
        call_id: `toolu_${caseIndex}_${number}`,
      },
    ],
    tool_results: [
      {
        call_id: `toolu_${caseIndex}_${number}`,
        result: JSON.stringify({
          order_id: orderId,
          status: 'shipped',
          items: ['USB-C cable', 'Charger 65 W'],
          total: 54.9,
          carrier: 'DHL',
        }),
        is_error: false,
      },
    ],
    metrics,
    score: metrics.reduce((sum, entry) => sum + entry.score, 0) / metrics.length,
    token_usage: usage(1539, 34),
    cost_usd: 0.0051,
    num_turns: 2,
    duration_ms: 1800 + ((caseIndex * 37) % 900),
  };
}

/** @returns {import("../packages/holodeck/dist/index.js").RunReport} */
function bigRun() {
  const cases = Array.from({ length: CASES }, (_, index) => {
    const attempts = Array.from({ length: ATTEMPTS }, (_, number) => attempt(index, number + 1));
    const passes = attempts.filter((entry) => entry.passed).length;
    const first = attempts[0];
    return {
      name: `case-${String(index).padStart(4, '0')}`,
      tags: [index % 2 ? 'orders' : 'smoke'],
      input: `Where is my order A-${String(1000 + (index % 9000)).padStart(4, '0')}?`,
      ground_truth: 'Your order has shipped with DHL; the total was $54.90.',
      passed: passes === attempts.length,
      errored: false,
      pass_rate: passes / attempts.length,
      min_pass_rate: 1,
      pass_at_k: passes > 0 ? 1 : 0,
      pass_pow_k: passes === attempts.length ? 1 : 0,
      attempts,
      response: first.response,
      tool_calls: first.tool_calls,
      tool_results: first.tool_results,
      metrics: first.metrics,
      score: attempts.reduce((sum, entry) => sum + entry.score, 0) / attempts.length,
      token_usage: usage(1539 * ATTEMPTS, 34 * ATTEMPTS),
      num_turns: 2,
      duration_ms: attempts.reduce((sum, entry) => sum + entry.duration_ms, 0),
    };
  });
  const passed = cases.filter((entry) => entry.passed).length;
  return {
    schema_version: /** @type {const} */ (2),
    run_id: '2026-12-01T09-00-00-000Z-bench1',
    started_at: '2026-12-01T09:00:00.000Z',
    finished_at: '2026-12-01T09:50:00.000Z',
    agent: {
      name: 'customer-support',
      file: '/bench/agent.yaml',
      model: 'claude-sonnet-4-6',
      provider: 'anthropic',
      config_hash: `sha256:${'ab'.repeat(32)}`,
      config: { name: 'customer-support', model: { provider: 'anthropic', name: 'claude-sonnet-4-6' } },
      instructions_hash: `sha256:${'cd'.repeat(32)}`,
    },
    environment: {
      git: { commit: 'c0ffee1234567890c0ffee1234567890c0ffee12', branch: 'main', dirty: false },
      versions: {
        holodeck: '0.1.0',
        node: process.version,
        sdk: { name: '@anthropic-ai/claude-agent-sdk', version: '0.3.332' },
        cli: '2.1.332',
      },
    },
    suite_cases: cases.map((entry) => entry.name),
    options: { concurrency: 4, isolation: 'process', allow_side_effects: false },
    summary: {
      total: CASES,
      passed,
      failed: CASES - passed,
      errored: 0,
      pass_rate: passed / CASES,
      duration_ms: 3_000_000,
      token_usage: usage(1539 * ATTEMPTS * CASES, 34 * ATTEMPTS * CASES),
      cost_usd: 0.0051 * ATTEMPTS * CASES,
    },
    cases,
  };
}

const median = (numbers) => [...numbers].sort((a, b) => a - b)[Math.floor(numbers.length / 2)];
const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(2)} MB`;

function peakRssKb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return {
    rss: Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]),
    peak: Number(/VmHWM:\s+(\d+)/.exec(status)?.[1]),
  };
}

const work = mkdtempSync(path.join(tmpdir(), 'holodeck-view-bench-'));
try {
  const report = bigRun();
  const started = performance.now();
  const html = writeHtmlReport(report);
  const writeMs = performance.now() - started;
  const file = path.join(work, 'report.html');
  writeFileSync(file, html);
  const json = writeJsonReport(report);
  const size = statSync(file).size;
  console.log(`run: ${CASES} cases × ${ATTEMPTS} attempts; saved JSON ${mb(Buffer.byteLength(json))}`);
  console.log(
    `HTML report: ${mb(size)} (target ≤ 5 MB: ${size <= 5 * 1024 * 1024 ? 'met' : 'NOT met'}), written in ${writeMs.toFixed(0)} ms`,
  );

  const browser = await launchChromium();
  const times = [];
  for (let load = 0; load < LOADS; load += 1) {
    const page = await browser.newPage();
    await page.goto(pathToFileURL(file).href);
    await page.waitForSelector('html[data-ready="true"]', { timeout: 30_000 });
    const rows = await page.locator('table.cases tbody tr').count();
    if (rows !== CASES) throw new Error(`the run page shows ${rows} rows, not ${CASES}`);
    // The script's mark when it has drawn the page, in the page's clock (0 = navigation start).
    times.push(await page.evaluate(() => performance.getEntriesByName('holodeck-ready')[0]?.startTime));
    await page.close();
  }
  const usable = median(times);
  console.log(
    `run page usable from file:// in ${usable.toFixed(0)} ms (median of ${LOADS}; min ${Math.min(...times).toFixed(0)}, max ${Math.max(...times).toFixed(0)}; target ≤ 1000 ms: ${usable <= 1000 ? 'met' : 'NOT met'})`,
  );

  // The view server over a folder of 5 such runs.
  const agentFolder = path.join(work, 'agent');
  const runsDir = path.join(agentFolder, '.holodeck', 'runs');
  mkdirSync(runsDir, { recursive: true });
  writeFileSync(path.join(agentFolder, 'agent.yaml'), 'name: bench\n');
  for (let index = 0; index < 5; index += 1) {
    const runId = `2026-12-0${index + 1}T09-00-00-000Z-bench${index}`;
    writeFileSync(
      path.join(runsDir, `${runId}.json`),
      json
        .replace(report.run_id, runId)
        .replace('2026-12-01T09:00:00.000Z', `2026-12-0${index + 1}T09:00:00.000Z`),
    );
  }
  const child = spawn(
    process.execPath,
    [path.join(root, 'packages/holodeck/bin/holodeck.js'), 'test', 'view', agentFolder],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const url = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = /http:\/\/\S+\//.exec(out);
      if (match) resolve(match[0]);
    });
    child.on('exit', (code) => reject(new Error(`holodeck test view exited ${code}`)));
  });
  const idle = peakRssKb(child.pid);
  const page = await browser.newPage();
  const before = performance.now();
  await page.goto(url);
  await page.waitForSelector('table.runs');
  await page.locator('table.runs tbody a').first().click();
  await page.waitForSelector('table.cases tbody tr');
  const servedMs = performance.now() - before;
  const loaded = peakRssKb(child.pid);
  console.log(
    `view server over 5 such runs: RSS ${(idle.rss / 1024).toFixed(0)} MB after start-up (headers of every run read), peak ${(loaded.peak / 1024).toFixed(0)} MB after the runs page and a run page (${servedMs.toFixed(0)} ms for both, in Chromium)`,
  );
  await browser.close();
  child.kill('SIGTERM');
  await new Promise((resolve) => child.on('close', resolve));
} finally {
  rmSync(work, { recursive: true, force: true });
}

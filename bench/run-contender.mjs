// @ts-check
// One timed run of a contender for bench/test-runner.mjs and bench/chat-vs-ai-sdk.mjs: spawn,
// sample, check, and report what the run cost (wall time, process tree memory and CPU, CLI
// processes, request times). The fake server speaks `protocol` (fake-model-protocols.mjs).
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { describeUnexpected } from './check-bench-requests.mjs';
import { PROTOCOLS } from './fake-model-protocols.mjs';
import { childrenCpuSeconds, machineBusySeconds, startTreeSampler } from './proc-stats.mjs';

const SAMPLE_EVERY_MS = 100;
const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const probeModule = path.join(here, 'child-probe.mjs');

const now = () => performance.timeOrigin + performance.now();

/** A run that failed or did not do the expected work: the benchmark stops (a failed run is never timed). */
export class BenchError extends Error {}

/** Checks the fake server saw exactly one agent-loop request per case, each the same as HoloDeck sends. */
function checkRequests(server, before, label, caseCount, { instructions, model }, requestProblems) {
  const added = server.requests.slice(before.requests);
  const unexpected = server.unexpected.slice(before.unexpected);
  if (unexpected.length) {
    throw new BenchError(
      `${label}: the fake server got unexpected requests: ${describeUnexpected(unexpected)}`,
    );
  }
  if (added.length !== caseCount) {
    throw new BenchError(`${label}: expected ${caseCount} agent-loop requests, got ${added.length}`);
  }
  for (const request of added) {
    const problems = requestProblems(request, { instructions, model });
    if (problems.length) throw new BenchError(`${label}: unexpected request: ${problems.join('; ')}`);
  }
  return added;
}

/**
 * Spawns one contender (`node --import child-probe.mjs <args>`, or `contender.command` instead of
 * this Node, in `contender.cwd`, with `contender.env` added), times it from spawn to exit,
 * samples its process tree every `sampleEveryMs` (0: not at all; peak RSS then comes from the
 * probe, the node process alone), and checks it succeeded: exit 0, `contender.expectStdout` (e.g.
 * the bare loop's "N/N passed") in its output when set, and one agent-loop request per case on the
 * fake server, each passing `protocol.requestProblems`. Throws BenchError otherwise.
 */
export function runContender({
  contender,
  server,
  home,
  latencyMs,
  caseCount,
  requestTimes,
  expected,
  protocol = PROTOCOLS.anthropic,
  sampleEveryMs = SAMPLE_EVERY_MS,
}) {
  const env = {
    PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    HOME: home,
    ...protocol.env(server),
    NO_COLOR: '1',
    ...contender.env,
  };
  const before = { requests: server.requests.length, unexpected: server.unexpected.length };
  const load = os.loadavg();
  const cpuBefore = childrenCpuSeconds();
  const busyBefore = machineBusySeconds();
  const selfBefore = process.cpuUsage();
  return new Promise((resolve, reject) => {
    const startedAt = now();
    // `command`: another Node binary (promptfoo runs on Node 22); the probe works on either.
    const child = spawn(contender.command ?? process.execPath, ['--import', probeModule, ...contender.args], {
      env,
      cwd: contender.cwd ?? root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const sampler = sampleEveryMs > 0 ? startTreeSampler(child.pid, startedAt, sampleEveryMs) : undefined;
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', (error) => {
      sampler?.stop();
      reject(new BenchError(`${contender.label}: could not start: ${error.message}`));
    });
    child.on('close', (code, signal) => {
      const closedAt = now();
      const timeline = sampler?.stop() ?? [];
      const selfCpu = process.cpuUsage(selfBefore);
      const treeCpu = childrenCpuSeconds() - cpuBefore;
      const busy = machineBusySeconds() - busyBefore;
      const wallMs = closedAt - startedAt;
      const probeLine = stderr.split('\n').find((line) => line.startsWith('bench-probe '));
      const otherStderr = stderr
        .split('\n')
        .filter((line) => line && !line.startsWith('bench-probe '))
        .slice(-15)
        .join('\n');
      if (code !== 0) {
        reject(
          new BenchError(
            `${contender.label} (latency ${latencyMs} ms): run failed (exit ${code ?? signal})\n` +
              `stdout (tail):\n${stdout.trim().split('\n').slice(-25).join('\n')}\nstderr (tail):\n${otherStderr}`,
          ),
        );
        return;
      }
      if (contender.expectStdout !== undefined && !stdout.includes(contender.expectStdout)) {
        reject(
          new BenchError(
            `${contender.label}: expected "${contender.expectStdout}" in its output, got:\n${stdout}`,
          ),
        );
        return;
      }
      let requests;
      try {
        requests = checkRequests(
          server,
          before,
          `${contender.label} (latency ${latencyMs} ms)`,
          caseCount,
          expected,
          protocol.requestProblems,
        );
      } catch (error) {
        reject(error);
        return;
      }
      const probe = probeLine ? JSON.parse(probeLine.slice('bench-probe '.length)) : undefined;
      const clis = probe?.children.filter((entry) => entry.command === 'claude') ?? [];
      const requestAt = requests.map((request) => requestTimes.get(request)).filter(Boolean);
      const selfCpuSeconds = (selfCpu.user + selfCpu.system) / 1e6;
      resolve({
        wallMs,
        startedAt,
        closedAt,
        loadBefore: load,
        loadAfter: os.loadavg(),
        peakRssKb: timeline.length ? Math.max(...timeline.map((point) => point.rssKb)) : probe?.maxRssKb,
        peakClaude: timeline.length ? Math.max(...timeline.map((point) => point.claude)) : undefined,
        meanClaude: timeline.length
          ? timeline.reduce((sum, point) => sum + point.claude, 0) / timeline.length
          : undefined,
        clisSpawned: probe ? clis.length : undefined,
        nodeCpuSeconds: probe?.cpuSeconds,
        treeCpuSeconds: treeCpu,
        otherCores: Math.max(0, busy - treeCpu - selfCpuSeconds) / (wallMs / 1000),
        firstRequestMs: requestAt.length ? Math.min(...requestAt) - startedAt : undefined,
        // from the last answer (request + latency) to the process tree's exit
        tailMs: requestAt.length ? closedAt - (Math.max(...requestAt) + latencyMs) : undefined,
        trace: {
          requestsAt: requestAt.map((at) => at - startedAt),
          clis: clis.map((entry) => ({
            spawnedAt: entry.spawnedAt - startedAt,
            firstStdoutAt: entry.firstStdoutAt ? entry.firstStdoutAt - startedAt : undefined,
            exitedAt: entry.exitedAt ? entry.exitedAt - startedAt : undefined,
          })),
          nodeMainAt: probe ? probe.preloaded - startedAt : undefined,
          nodeExitAt: probe ? probe.exitAt - startedAt : undefined,
          timeline,
        },
      });
    });
  });
}

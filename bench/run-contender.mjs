// One timed run of a contender for bench/test-runner.mjs: spawn, sample, check, and report what
// the run cost (wall time, process tree memory and CPU, CLI processes, request times).
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { describeUnexpected, requestProblems } from './check-bench-requests.mjs';
import { childrenCpuSeconds, machineBusySeconds, startTreeSampler } from './proc-stats.mjs';

const SAMPLE_EVERY_MS = 100;
const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const probeModule = path.join(here, 'child-probe.mjs');

const now = () => performance.timeOrigin + performance.now();

/** A run that failed or did not do the expected work: the benchmark stops (a failed run is never timed). */
export class BenchError extends Error {}

/** Checks the fake server saw exactly one agent-loop request per case, each the same as HoloDeck sends. */
function checkRequests(server, before, label, caseCount, { instructions, model }) {
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
 * Spawns one contender (`node --import child-probe.mjs <args>`), times it from spawn to exit,
 * samples its process tree, and checks it succeeded: exit 0, the bare loop's "N/N passed", and
 * one agent-loop request per case on the fake server. Throws BenchError otherwise.
 */
export function runContender({ contender, server, home, latencyMs, caseCount, requestTimes, expected }) {
  const env = {
    PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    HOME: home,
    ANTHROPIC_API_KEY: 'sk-bench-fake',
    ANTHROPIC_BASE_URL: server.url,
    NO_COLOR: '1',
  };
  const before = { requests: server.requests.length, unexpected: server.unexpected.length };
  const load = os.loadavg();
  const cpuBefore = childrenCpuSeconds();
  const busyBefore = machineBusySeconds();
  const selfBefore = process.cpuUsage();
  return new Promise((resolve, reject) => {
    const startedAt = now();
    const child = spawn(process.execPath, ['--import', probeModule, ...contender.args], {
      env,
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const sampler = startTreeSampler(child.pid, startedAt, SAMPLE_EVERY_MS);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', (error) => {
      sampler.stop();
      reject(new BenchError(`${contender.label}: could not start: ${error.message}`));
    });
    child.on('close', (code, signal) => {
      const closedAt = now();
      const timeline = sampler.stop();
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
      if (contender.key === 'bare' && !stdout.includes(`bare-test-loop: ${caseCount}/${caseCount} passed`)) {
        reject(new BenchError(`${contender.label}: not all ${caseCount} answers arrived:\n${stdout}`));
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
        peakRssKb: Math.max(...timeline.map((point) => point.rssKb)),
        peakClaude: Math.max(...timeline.map((point) => point.claude)),
        meanClaude: timeline.reduce((sum, point) => sum + point.claude, 0) / timeline.length,
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

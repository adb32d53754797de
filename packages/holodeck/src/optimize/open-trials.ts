import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { LoadedAgent, OptimizeConfig } from '../config/index.js';
import { UsageError } from '../errors.js';
import { splitCases } from './split-cases.js';
import {
  appendTrialsLine,
  listOptimizations,
  optimizeDirectory,
  type StartLine,
  type TrialsLine,
} from './trials-file.js';

// An optimization's trials.jsonl, opened for `holodeck test optimize`: a new one, or one resumed.

/** The unfinished (or named) optimization --resume continues, checked against agent.yaml. */
async function resumeLines(agent: LoadedAgent, resume: string | true, configHash: string) {
  const stored = await listOptimizations(agent.directory);
  const found =
    resume === true
      ? stored.find((run) => !run.lines.some((line) => line.type === 'finish'))
      : stored.find((run) => run.id === resume);
  if (!found)
    throw new UsageError(
      '--resume',
      resume === true
        ? `no unfinished optimization of this agent in ${optimizeDirectory(agent.directory)}`
        : `no optimization "${resume}" in ${optimizeDirectory(agent.directory)}`,
      stored.length
        ? `the optimizations are ${stored.map((run) => run.id).join(', ')}`
        : 'start one without --resume',
    );
  if (found.lines.some((line) => line.type === 'finish'))
    throw new UsageError(
      '--resume',
      `optimization ${found.id} already finished`,
      'start a new one without --resume',
    );
  const start = found.lines[0];
  if (start?.type !== 'start') throw new UsageError('--resume', `${found.file} has no start line`);
  if (start.agent.config_hash !== configHash)
    throw new UsageError(
      '--resume',
      `agent.yaml changed since optimization ${found.id} started, so its trials are of another agent`,
      'start a new optimization without --resume',
    );
  return { id: found.id, file: found.file, start, lines: found.lines };
}

/** What a new optimization's start line records. */
export interface TrialsSettings {
  configHash: string;
  cases: Parameters<typeof splitCases>[0];
  confidence: number;
  maxTrials: number;
  maxCostUsd: number | undefined;
  maxTimeSeconds: number | undefined;
}

/**
 * The optimization's trials.jsonl: the saved one and its lines (--resume), else a new one with
 * its start line (the split of the cases, the settings).
 */
export async function openTrials(
  agent: LoadedAgent,
  options: { resume?: string | true; replay: boolean },
  config: OptimizeConfig,
  note: (message: string) => void,
  settings: TrialsSettings,
): Promise<{ id: string; trialsFile: string; start: StartLine; previous: TrialsLine[] }> {
  const { configHash, cases, confidence, maxTrials, maxCostUsd, maxTimeSeconds } = settings;
  let id: string;
  let trialsFile: string;
  let start: StartLine;
  let previous: TrialsLine[] = [];
  if (options.resume !== undefined) {
    const resumed = await resumeLines(agent, options.resume, configHash);
    ({ id, start } = resumed);
    trialsFile = resumed.file;
    previous = resumed.lines;
    note(
      `resuming optimization ${id}: ${previous.filter((line) => line.type === 'trial').length} trial(s) saved`,
    );
  } else {
    const split = splitCases(cases, config.holdout, config.seed);
    id = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(3).toString('hex')}`;
    trialsFile = path.join(optimizeDirectory(agent.directory), id, 'trials.jsonl');
    start = {
      type: 'start',
      schema_version: 1,
      optimize_id: id,
      started_at: new Date().toISOString(),
      agent: { name: agent.config.name, file: agent.file, config_hash: configHash },
      baseline_instructions: agent.instructions,
      split,
      settings: {
        axes: config.axes,
        repeats: config.repeats,
        confidence,
        max_trials: maxTrials,
        max_cost_usd: maxCostUsd ?? null,
        max_time_seconds: maxTimeSeconds ?? null,
        replay: options.replay,
      },
    };
    await mkdir(path.dirname(trialsFile), { recursive: true });
    await appendTrialsLine(trialsFile, start);
    if (!split.holdout.length)
      note('no holdout cases (optimize.holdout is 0 or the suite is small): the winner is not confirmed');
  }
  return { id, trialsFile, start, previous };
}

import path from 'node:path';
import { durationSeconds, type LoadedAgent, type OptimizeConfig } from '../config/index.js';
import { ConfigError, UsageError } from '../errors.js';
import { judgeClientFor } from '../evals/judge/index.js';
import type { JudgeClient } from '../evals/metric.js';
import type { Recorder } from '../recording/recorder.js';
import { withReplayCredentials } from '../recording/replay-credentials.js';
import { prepareSuite } from '../runner/prepare-suite.js';
import { DEFAULT_CONFIDENCE } from '../runner/report/case-state.js';
import { sha256Of } from '../runner/report/redact-agent-config.js';
import { describeChanges } from './candidate.js';
import { openTrials } from './open-trials.js';
import { ProposerMeter, proposerPricing } from './proposer-cost.js';
import { type OptimizeEvent, type OptimizeResult, runOptimization } from './run-optimization.js';
import { appendTrialsLine, type FinishLine, type StartLine } from './trials-file.js';
import { type OptimizedAgent, writeOptimizedAgent } from './write-optimized-agent.js';

/** Options of `holodeck test optimize` after its flags are parsed. */
export interface OptimizeAgentOptions {
  /** Override optimize.max_trials, max_cost, max_time (`--max-trials`, `--max-cost`, `--max-time`). */
  maxTrials?: number;
  maxCostUsd?: number;
  maxTimeSeconds?: number;
  concurrency: number;
  /** `--resume [id]`: true for the latest unfinished optimization of this agent. */
  resume?: string | true;
  /** Under --replay: a fresh recorder per evaluation. */
  openRecorder?: () => Promise<Recorder | undefined>;
  replay: boolean;
  signal?: AbortSignal;
  onEvent?: (event: OptimizeEvent) => void;
  /** The proposer, for tests; default: the optimize.proposer model through the judge client. */
  proposer?: JudgeClient;
}

/** What an optimization produced, for the CLI to print. */
export interface OptimizeOutcome extends OptimizeResult {
  id: string;
  trialsFile: string;
  start: StartLine;
  optimized?: OptimizedAgent;
}

/** The `optimize:` block, or a ConfigError pointing at agent.yaml when there is none. */
function optimizeBlock(agent: LoadedAgent): OptimizeConfig {
  const block = agent.config.optimize;
  if (block) return block;
  throw new ConfigError([
    {
      file: agent.file,
      path: '',
      message: 'holodeck test optimize needs an optimize: block in agent.yaml',
      hint: 'add optimize: { axes: [instructions], holdout: 0.3, repeats: 3 } (see docs/optimize.md)',
    },
  ]);
}

/** A refusing fetch: under --replay the proposer answers only from its cache, never live. */
const noLiveProposer: typeof fetch = async () => {
  throw new Error(
    "the proposer's request has no recording (--replay never sends it live): propose once without --replay, then replay",
  );
};

/** The model that proposes instructions: optimize.proposer.model, else evaluations.model, else model. */
function proposerModel(agent: LoadedAgent, config: OptimizeConfig) {
  return config.proposer?.model ?? agent.config.evaluations?.model ?? agent.config.model;
}

function proposerFor(
  agent: LoadedAgent,
  config: OptimizeConfig,
  replay: boolean,
  notes: (message: string) => void,
  meter: ProposerMeter,
) {
  const model = proposerModel(agent, config);
  const settingsPath = config.proposer
    ? 'optimize.proposer.model'
    : agent.config.evaluations?.model
      ? 'evaluations.model'
      : 'model';
  return judgeClientFor(model, {
    env: replay ? withReplayCredentials(agent).env : agent.env,
    // Proposals are cached by what was asked: --resume and --replay get the same ones offline.
    cacheDir: path.join(agent.directory, '.holodeck', 'cache', 'optimize'),
    settingsPath,
    onWarning: notes,
    samplingTemperature: model.temperature ?? 1,
    onUsage: meter.record,
    ...(replay ? { fetch: noLiveProposer } : {}),
  });
}

/** A budget that cannot see the proposer's spend would be a budget in name only: refuse it. */
function checkCostBudget(
  config: OptimizeConfig,
  options: OptimizeAgentOptions,
  maxCostUsd: number | undefined,
  pricing: ReturnType<typeof proposerPricing>,
): void {
  if (
    maxCostUsd !== undefined &&
    pricing.kind === 'unknown' &&
    config.axes.includes('instructions') &&
    !options.replay &&
    !options.proposer
  )
    throw new UsageError(
      options.maxCostUsd !== undefined ? '--max-cost' : 'optimize.max_cost',
      `cannot count the proposer's calls: ${pricing.reason}`,
      'set optimize.proposer.pricing (input_per_million, output_per_million: USD per million tokens), or leave the cost budget out',
    );
}

/**
 * `holodeck test optimize`: splits the suite, runs the search (runOptimization), confirms the
 * winner on the holdout, writes agent.optimized.yaml and its diff (never agent.yaml), and ends
 * trials.jsonl with a finish line. A stopped search (Ctrl+C, --max-time) has no finish line and
 * continues with --resume.
 */
export async function optimizeAgent(
  agent: LoadedAgent,
  options: OptimizeAgentOptions,
): Promise<OptimizeOutcome> {
  const config = optimizeBlock(agent);
  const note = (message: string) => options.onEvent?.({ type: 'note', message });
  const maxTrials = options.maxTrials ?? config.max_trials;
  const maxCostUsd = options.maxCostUsd ?? config.max_cost;
  const maxTimeSeconds =
    options.maxTimeSeconds ?? (config.max_time !== undefined ? durationSeconds(config.max_time) : undefined);
  const pricing = proposerPricing(agent, config, proposerModel(agent, config));
  checkCostBudget(config, options, maxCostUsd, pricing);
  const meter = new ProposerMeter(pricing);
  const configHash = sha256Of({
    config: { ...agent.config, optimize: undefined },
    instructions: agent.instructions,
  });
  const suite = await prepareSuite(agent, agent);
  const cases = suite.cases.map((testCase) => ({ name: testCase.config.name, tags: testCase.config.tags }));
  if (cases.length < 2)
    throw new UsageError(
      'optimize',
      `the suite has ${cases.length} case${cases.length === 1 ? '' : 's'}: too few to tell a better candidate from noise`,
      'add test cases (a few per kind of question, tagged by kind)',
    );
  const confidence = agent.config.evaluations?.confidence ?? DEFAULT_CONFIDENCE;
  const { id, trialsFile, start, previous } = await openTrials(agent, options, config, note, {
    configHash,
    cases,
    confidence,
    maxTrials,
    maxCostUsd,
    maxTimeSeconds,
  });
  const gate = agent.config.evaluations?.gate;
  const required = gate ? (gate.required ?? 'all') : [];
  const proposer = config.axes.includes('instructions')
    ? (options.proposer ?? proposerFor(agent, config, options.replay, note, meter))
    : undefined;
  const result = await runOptimization({
    agent,
    config,
    split: start.split,
    trialsFile,
    start,
    previous,
    maxTrials,
    ...(maxCostUsd !== undefined ? { maxCostUsd } : {}),
    ...(maxTimeSeconds !== undefined ? { deadline: Date.now() + maxTimeSeconds * 1000 } : {}),
    confidence,
    required,
    ...(proposer ? { proposer, proposerCost: () => meter.take() } : {}),
    evaluation: {
      repeats: config.repeats,
      concurrency: options.concurrency,
      ...(options.openRecorder ? { openRecorder: options.openRecorder } : {}),
      onNotice: note,
    },
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.onEvent ? { onEvent: options.onEvent } : {}),
  });
  if (result.stopped === 'interrupted') {
    // No finish line: --resume continues at the next move.
    return { ...result, id, trialsFile, start, finish: finishLine(result.stopped, undefined, null) };
  }
  let optimized: OptimizedAgent | undefined;
  if (result.winner) {
    const winner = result.winner;
    optimized = await writeOptimizedAgent(
      agent.file,
      winner.candidate.changes,
      path.dirname(trialsFile),
      ` Written by holodeck test optimize (optimization ${id}, trial ${winner.trial}: ${describeChanges(winner.candidate.changes)}).\n ${result.holdout ? result.holdout.message : 'Not confirmed on a holdout.'}\n Review it, then copy what you keep into ${path.basename(agent.file)}.`,
    );
  }
  const finish = finishLine(result.stopped, result.winner?.candidate.id ?? null, optimized?.file ?? null);
  await appendTrialsLine(trialsFile, finish);
  return { ...result, id, trialsFile, start, finish, ...(optimized ? { optimized } : {}) };
}

function finishLine(
  stopped: FinishLine['stopped'],
  winner: string | null | undefined,
  file: string | null,
): FinishLine {
  return {
    type: 'finish',
    finished_at: new Date().toISOString(),
    stopped,
    winner: winner ?? null,
    optimized_file: file,
  };
}

import type { LoadedAgent } from '../config/index.js';
import { summarise } from './build-case-report.js';
import { recordRunEnvironment } from './report/record-run-environment.js';
import { instructionsVersion, redactAgentConfig, sha256Of } from './report/redact-agent-config.js';
import type { CaseReport, RunAgent, RunEnvironment, RunReport } from './report/run-report.js';
import { RUN_REPORT_SCHEMA_VERSION } from './report/run-report.js';

/** How the run was made, as `holodeck test` flags. */
export interface RunRecordOptions {
  concurrency: number;
  isolation: 'process' | 'session';
  repeat?: number | 'auto';
  filter?: string;
  tags?: readonly string[];
  shard?: { index: number; count: number };
  caseNames?: readonly string[];
  sample?: number;
  sampleSeed?: number;
  limit?: number;
  allowSideEffects: boolean;
  /** `--max-processes`, when given. */
  maxProcesses?: number;
  /** The confidence level of the report's intervals (`evaluations.confidence`, default 0.95). */
  confidence?: number;
}

/** Unique and sortable: `2026-11-30T01-02-03-123Z-ab12cd`. */
function newRunId(startedAt: Date, suffix: string): string {
  return `${startedAt.toISOString().replace(/[:.]/g, '-')}-${suffix}`;
}

/**
 * The saved record of one run, from its start: the id, the agent (configuration redacted and
 * hashed), the environment (git, versions; looked up once, in the background) and the options.
 * `report()` gives the RunReport of the cases finished so far, or of the whole run.
 */
export class RunRecord {
  readonly runId: string;
  readonly startedAt: Date;
  private readonly agent: RunAgent;
  private readonly environment: Promise<RunEnvironment>;
  private readonly options: RunReport['options'];
  private suiteCases: string[] | null = null;
  private readonly confidence: number | undefined;
  private continuedFrom: RunReport['continued_from'];

  constructor(loaded: LoadedAgent, options: RunRecordOptions, idSuffix: string, startedAt = new Date()) {
    this.startedAt = startedAt;
    this.confidence = options.confidence;
    this.runId = newRunId(startedAt, idSuffix);
    const config = redactAgentConfig(loaded.config, { env: loaded.env, directory: loaded.directory });
    const version = instructionsVersion(loaded.instructions);
    this.agent = {
      name: loaded.config.name,
      file: loaded.file,
      model: loaded.config.model.name,
      provider: loaded.config.model.provider,
      config_hash: sha256Of(config),
      config,
      instructions_hash: sha256Of(loaded.instructions),
      ...(version !== undefined ? { instructions_version: version } : {}),
    };
    this.environment = recordRunEnvironment(loaded.directory, loaded.config.model.provider, loaded.env);
    this.options = {
      concurrency: options.concurrency,
      ...(options.repeat !== undefined ? { repeat: options.repeat } : {}),
      isolation: options.isolation,
      ...(options.filter !== undefined ? { filter: options.filter } : {}),
      ...(options.tags?.length ? { tags: [...options.tags] } : {}),
      ...(options.shard ? { shard: `${options.shard.index}/${options.shard.count}` } : {}),
      ...(options.caseNames?.length ? { cases: [...options.caseNames] } : {}),
      ...(options.sample !== undefined ? { sample: options.sample, sample_seed: options.sampleSeed ?? 0 } : {}),
      ...(options.limit !== undefined ? { limit: options.limit } : {}),
      allow_side_effects: options.allowSideEffects,
      ...(options.maxProcesses !== undefined ? { max_processes: options.maxProcesses } : {}),
    };
  }

  /** `sha256:<hex>` of the redacted agent configuration. */
  get configHash(): string | null {
    return this.agent.config_hash;
  }

  /** `--retry-errored` / `--resume`: the saved run this one continues, and the cases it ran again. */
  setContinuedFrom(continued: NonNullable<RunReport['continued_from']>): void {
    this.continuedFrom = continued;
  }

  /** Every case name of the suite, selected or not (compare tells "not selected" from "removed"). */
  setSuiteCases(names: readonly string[]): void {
    this.suiteCases = [...names];
  }

  /** The suite's hash (test cases with their metrics and thresholds, evaluations.metrics). */
  setSuiteHash(hash: string): void {
    this.agent.suite_hash = hash;
  }

  /**
   * The report of `cases`, finished now. With `plannedCases` it is a record in progress (the
   * cases finished so far of that many).
   */
  async report(
    cases: readonly CaseReport[],
    state: { interrupted?: boolean; plannedCases?: number; budget?: RunReport['budget'] } = {},
  ): Promise<RunReport> {
    const environment = await this.environment;
    const finishedAt = new Date();
    return {
      schema_version: RUN_REPORT_SCHEMA_VERSION,
      run_id: this.runId,
      started_at: this.startedAt.toISOString(),
      finished_at: finishedAt.toISOString(),
      agent: this.agent,
      environment,
      suite_cases: this.suiteCases,
      options: this.options,
      ...(state.interrupted ? { interrupted: true } : {}),
      ...(state.budget ? { budget: state.budget } : {}),
      ...(this.continuedFrom ? { continued_from: this.continuedFrom } : {}),
      ...(state.plannedCases !== undefined ? { in_progress: { planned_cases: state.plannedCases } } : {}),
      summary: summarise(cases, finishedAt.getTime() - this.startedAt.getTime(), this.confidence),
      cases: [...cases],
    };
  }
}

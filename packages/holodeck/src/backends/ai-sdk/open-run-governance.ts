import { NovarchToolGovernor } from 'novarch';
import type { LoadedAgent } from '../../config/index.js';
import { errorMessage } from '../../support.js';
import type { GovernanceSummary, SessionEvent } from '../contract/index.js';
import { governedToolName, openGovernance } from '../governance/open-governance.js';
import { ModelStepText } from './model-step-text.js';

/** Novarch for one run (or one chat): the governor every tool call of it passes through. */
export interface RunGovernance {
  governor: NovarchToolGovernor;
  /** The model's text in the step in progress: a held write's rationale (runTurn wraps the model with it). */
  stepText: ModelStepText;
  /** The name the governor and the rules know a tool by. */
  toolName(name: string): string;
  /** The reason, once Novarch stopped the session (judge kill, hold skipped or timed out, operator kill). */
  killReason(): string | undefined;
  summary(): Promise<GovernanceSummary>;
  /** Calls `watcher` with a `hold-pending`/`hold-resolved` event per hold; returns how to stop. */
  watchHolds(watcher: (event: SessionEvent) => void): () => void;
}

/** The kill as the Claude backend reports it: session, action, rationale and the rules cited. */
function killMessage(governor: NovarchToolGovernor): string | undefined {
  try {
    governor.raiseIfKilled();
    return undefined;
  } catch (error) {
    return errorMessage(error);
  }
}

/** Novarch wired for one agent on this backend: one governed session per run. */
export interface AiSdkGovernance {
  openRun(): Promise<RunGovernance>;
  close(): Promise<void>;
}

/**
 * The agent's `governance:` block on the AI SDK backend: the same engine, rules and store as on
 * Claude (backends/governance), and a NovarchToolGovernor per run in place of the hook gate.
 * Tools are governed under `governedToolName` (function tools as `mcp__holodeck_tools__<name>`,
 * as on Claude), so one rules file serves both backends.
 */
export async function openAiSdkGovernance(agent: LoadedAgent): Promise<AiSdkGovernance | undefined> {
  const governance = await openGovernance(agent);
  if (!governance) return undefined;
  return {
    async openRun() {
      const session = await governance.openSession();
      const holds = governance.holdReporter();
      const governor = new NovarchToolGovernor({
        session,
        toolKinds: governance.toolKinds,
        writeSpecs: governance.writeSpecs,
        onHold: holds.listener,
      });
      return {
        watchHolds: (watcher) => holds.watch(watcher),
        governor,
        stepText: new ModelStepText(),
        toolName: (name) => governedToolName(agent, name),
        killReason: () => killMessage(governor),
        summary: () => governance.summarise(session, governor.killed),
      };
    },
    close: () => governance.close(),
  };
}

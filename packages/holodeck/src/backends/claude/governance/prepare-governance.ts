import type { HookCallbackMatcher, HookEvent, SDKMessage } from '@anthropic-ai/claude-agent-sdk';
import { NovarchHookGate } from 'novarch';
import type { LoadedAgent } from '../../../config/index.js';
import { errorMessage } from '../../../support.js';
import type { GovernanceSummary, SessionEvent } from '../../contract/index.js';
import { openGovernance } from '../../governance/open-governance.js';

/** One governed run: its hooks, and whether the session was killed when it ended. */
export interface GovernedRun {
  hooks: Partial<Record<HookEvent, HookCallbackMatcher[]>>;
  /** Every message of the run, so the gate completes evidence the hooks missed. */
  observe(message: SDKMessage): void;
  /** The reason, when Novarch killed the session (judge kill, hold timeout/skip, operator kill). */
  killReason(): string | undefined;
  /** Every verdict of this run's session, from the store. */
  summary(): Promise<GovernanceSummary>;
  /** Calls `watcher` with a `hold-pending`/`hold-resolved` event per hold; returns how to stop. */
  watchHolds(watcher: (event: SessionEvent) => void): () => void;
  /** Ends the run's gate: evidence still being written is settled. Called once the run is over. */
  close(): Promise<void>;
}

/** Novarch wired for one agent: opens a governed session per run. */
export interface GovernanceRuntime {
  openRun(): Promise<GovernedRun>;
  close(): Promise<void>;
}

/**
 * Novarch for the Claude backend: a NovarchHookGate per run, over the agent's governance
 * (backends/governance), which names function tools as the CLI calls them:
 * mcp__holodeck_tools__<name>.
 */
export async function prepareGovernance(agent: LoadedAgent): Promise<GovernanceRuntime | undefined> {
  const governance = await openGovernance(agent);
  if (!governance) return undefined;
  return {
    async openRun() {
      const session = await governance.openSession();
      const holds = governance.holdReporter();
      const gate = await new NovarchHookGate({
        toolKinds: governance.toolKinds,
        writeSpecs: governance.writeSpecs,
        session,
        onHold: holds.listener,
      }).open();
      return {
        watchHolds: (watcher) => holds.watch(watcher),
        hooks: gate.hooksConfig(),
        observe: (message) => gate.observe(message),
        close: () => gate.close(),
        summary: () => governance.summarise(session, gate.killed),
        killReason() {
          try {
            gate.raiseIfKilled();
            return undefined;
          } catch (error) {
            return errorMessage(error);
          }
        },
      };
    },
    close: () => governance.close(),
  };
}

import type { OptimizeConfig } from '../config/index.js';
import type { CandidateChanges } from './candidate.js';

/** One step of the search: ask the proposer for instructions, or set one enumerated value. */
export type Move =
  | { kind: 'propose' }
  | {
      kind: 'set';
      axis: 'temperature' | 'max_turns' | 'model' | 'tool_descriptions';
      changes: CandidateChanges;
    };

/**
 * The order of the search, as rounds over the axes in the order agent.yaml lists them: each round
 * asks the proposer once (axis instructions) and tries the next value of every enumerated axis on
 * top of the best candidate so far. `count` moves are planned; proposals fill the rounds after the
 * enumerated values run out (the trial budget ends the search). Deterministic, so `--resume`
 * continues at the move after the last one saved.
 */
export function planMoves(config: OptimizeConfig, count: number): Move[] {
  const lists: Record<string, CandidateChanges[]> = {
    temperature: (config.temperatures ?? []).map((temperature) => ({ temperature })),
    max_turns: (config.max_turns_values ?? []).map((max_turns) => ({ max_turns })),
    model: (config.models ?? []).map((model) => ({ model })),
    tool_descriptions: Object.entries(config.tool_descriptions ?? {}).flatMap(([tool, descriptions]) =>
      descriptions.map((description) => ({ tool_descriptions: { [tool]: description } })),
    ),
  };
  const moves: Move[] = [];
  const proposes = config.axes.includes('instructions');
  for (let round = 0; moves.length < count; round += 1) {
    let added = false;
    for (const axis of config.axes) {
      if (axis === 'instructions') {
        moves.push({ kind: 'propose' });
        added = true;
        continue;
      }
      const changes = lists[axis]?.[round];
      if (changes) {
        moves.push({ kind: 'set', axis, changes });
        added = true;
      }
    }
    if (!added && !proposes) break;
  }
  return moves.slice(0, count);
}

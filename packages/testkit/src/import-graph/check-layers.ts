import path from 'node:path';
import type { ImportEdge } from './import-graph.js';

/**
 * A package's layers, top first: each entry is one layer, the names of the top-level folders
 * (or root files) of `src/` in it. A module may import its own folder and any layer below its
 * own; never a layer above, nor another folder of its own layer.
 */
export type LayerMatrix = readonly (readonly string[])[];

/** What {@link checkLayers} found. */
export interface LayerReport {
  /** `from -> to` unit pairs that break the order, with the files behind each (sorted). */
  violations: Map<string, string[]>;
  /** Top-level folders or root files of src/ that no layer names. */
  unplaced: string[];
  /** Every unit pair that imports another, with the count of imports (for the docs). */
  pairs: Map<string, number>;
}

/** The top-level folder or root file of `src/` that holds `file`. */
export function unitOf(sourceRoot: string, file: string): string {
  return path.relative(sourceRoot, file).split(path.sep)[0] ?? '';
}

/**
 * Checks an import graph against a layer matrix. Import cycles between units are violations
 * too, since one side of any cycle imports upward or sideways.
 */
export function checkLayers(
  sourceRoot: string,
  edges: readonly ImportEdge[],
  layers: LayerMatrix,
): LayerReport {
  const levelOf = new Map<string, number>();
  layers.forEach((units, level) => {
    for (const unit of units) levelOf.set(unit, level);
  });
  const violations = new Map<string, string[]>();
  const pairs = new Map<string, number>();
  const unplaced = new Set<string>();
  for (const edge of edges) {
    if (edge.resolved === undefined) continue;
    const from = unitOf(sourceRoot, edge.from);
    const to = unitOf(sourceRoot, edge.resolved);
    if (from === to || to.startsWith('..')) continue;
    const key = `${from} -> ${to}`;
    pairs.set(key, (pairs.get(key) ?? 0) + 1);
    const fromLevel = levelOf.get(from);
    const toLevel = levelOf.get(to);
    if (fromLevel === undefined) unplaced.add(from);
    if (toLevel === undefined) unplaced.add(to);
    if (fromLevel === undefined || toLevel === undefined || toLevel > fromLevel) continue;
    const files = violations.get(key) ?? [];
    files.push(path.relative(sourceRoot, edge.from));
    violations.set(key, files);
  }
  for (const files of violations.values()) files.sort();
  return { violations, unplaced: [...unplaced].sort(), pairs };
}

/** The layer table that docs/architecture/layers.md holds for a package, one line a layer. */
export function renderLayerTable(layers: LayerMatrix): string {
  const rows = layers.map(
    (units, level) => `| ${level + 1} | ${units.map((unit) => `\`${unit}\``).join(', ')} |`,
  );
  return ['| layer | folders and root files of `src/` |', '| --- | --- |', ...rows].join('\n');
}

import { readFileSync, writeFileSync } from 'node:fs';
import { checkLayers, type LayerMatrix, renderLayerTable } from './check-layers.js';
import { readImportGraph } from './import-graph.js';

/** A package's layer rules: the matrix, and the upward imports still to be removed. */
export interface PackageLayers {
  /** The package's name in docs/architecture/layers.md (`holodeck`, `novarch`). */
  name: string;
  sourceRoot: string;
  layers: LayerMatrix;
  /** `from -> to` pairs known to break the order today, each with why it is still there. */
  debt: Readonly<Record<string, string>>;
}

/** What the layer test of a package asserts, as lists that must each be empty. */
export interface LayerFindings {
  /** Upward or sideways imports that are not listed as debt, with their files. */
  newViolations: string[];
  /** Debt entries that no longer occur: remove them from the list. */
  settledDebt: string[];
  /** Folders or root files that no layer names. */
  unplaced: string[];
  /** How many imports between units were read (to show the test sees the graph). */
  pairsRead: number;
}

export function findLayerProblems(rules: PackageLayers): LayerFindings {
  const report = checkLayers(rules.sourceRoot, readImportGraph(rules.sourceRoot), rules.layers);
  const newViolations = [...report.violations]
    .filter(([pair]) => !(pair in rules.debt))
    .map(([pair, files]) => `${pair} (${files.join(', ')})`);
  const settledDebt = Object.keys(rules.debt).filter((pair) => !report.violations.has(pair));
  return { newViolations, settledDebt, unplaced: report.unplaced, pairsRead: report.pairs.size };
}

/** The section of docs/architecture/layers.md for a package, as the test expects it. */
export function renderLayerSection(rules: PackageLayers): string {
  const debt = Object.entries(rules.debt).map(([pair, why]) => `- \`${pair}\`: ${why}`);
  return [
    `<!-- layers:${rules.name} (written by its layer test; edit the test, then copy) -->`,
    renderLayerTable(rules.layers),
    '',
    ...(debt.length === 0 ? ['No upward imports remain.'] : ['Upward imports still to remove:', '', ...debt]),
    `<!-- /layers:${rules.name} -->`,
  ].join('\n');
}

/**
 * A section with its table cells trimmed and separator rows reduced to `---`, so a Markdown
 * formatter padding the columns does not count as a difference.
 */
export function normalizeLayerSection(section: string): string {
  return section
    .split('\n')
    .map((line) =>
      line.startsWith('|')
        ? line
            .split('|')
            .map((cell) => (/^\s*-+\s*$/.test(cell) ? '---' : cell.trim()))
            .join('|')
        : line,
    )
    .join('\n');
}

/** The package's section as docs/architecture/layers.md holds it today, or undefined. */
export function documentedLayerSection(docFile: string, name: string): string | undefined {
  const text = readFileSync(docFile, 'utf8');
  const start = text.indexOf(`<!-- layers:${name} `);
  const endMarker = `<!-- /layers:${name} -->`;
  const end = text.indexOf(endMarker);
  if (start < 0 || end < 0) return undefined;
  return text.slice(start, end + endMarker.length);
}

/**
 * With UPDATE_LAYER_DOCS=1 in the environment, writes the package's section into the doc (in
 * place of the old one) so the test passes; otherwise does nothing. Run the layer tests that way
 * after changing a matrix, then review the doc's diff.
 */
export function updateLayerSectionIfAsked(docFile: string, rules: PackageLayers): void {
  if (process.env.UPDATE_LAYER_DOCS !== '1') return;
  const current = documentedLayerSection(docFile, rules.name);
  if (current === undefined) throw new Error(`${docFile} has no section for ${rules.name}`);
  const text = readFileSync(docFile, 'utf8');
  writeFileSync(docFile, text.replace(current, renderLayerSection(rules)));
}

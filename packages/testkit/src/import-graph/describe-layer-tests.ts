import { describe, expect, it } from 'vitest';
import {
  documentedLayerSection,
  findLayerProblems,
  normalizeLayerSection,
  type PackageLayers,
  renderLayerSection,
  updateLayerSectionIfAsked,
} from './layer-test-support.js';

/**
 * The layer tests of one package: the graph is read, every folder has a layer, nothing imports
 * upward or sideways but the listed debt, the debt still exists, and `docFile` shows the table.
 * `variable` names the matrix in the messages (where to add a folder or remove debt).
 */
export function describeLayerTests(
  title: string,
  rules: PackageLayers,
  variable: string,
  docFile: string,
): void {
  describe(title, () => {
    const findings = findLayerProblems(rules);

    it('reads the import graph (the test can see what it checks)', () => {
      expect(findings.pairsRead).toBeGreaterThan(30);
    });

    it('places every folder and root file of src/ in a layer', () => {
      expect(findings.unplaced, `add them to ${variable} (and docs/architecture/layers.md)`).toEqual([]);
    });

    it('nothing imports a layer above its own, nor another folder of its layer', () => {
      expect(findings.newViolations).toEqual([]);
    });

    it('lists only debt that still exists', () => {
      expect(findings.settledDebt, `remove these from ${variable}.debt`).toEqual([]);
    });

    it('docs/architecture/layers.md shows this table (UPDATE_LAYER_DOCS=1 rewrites it)', () => {
      updateLayerSectionIfAsked(docFile, rules);
      const documented = documentedLayerSection(docFile, rules.name) ?? `(no ${rules.name} section)`;
      expect(normalizeLayerSection(documented)).toBe(normalizeLayerSection(renderLayerSection(rules)));
    });
  });
}

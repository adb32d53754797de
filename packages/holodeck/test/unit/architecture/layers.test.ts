import { fileURLToPath } from 'node:url';
import {
  documentedLayerSection,
  findLayerProblems,
  normalizeLayerSection,
  type PackageLayers,
  renderLayerSection,
  updateLayerSectionIfAsked,
} from '@holodeck/testkit/import-graph';
import { describe, expect, it } from 'vitest';

// HoloDeck's layers, top first (DESIGN.md: cli → runner/chat/view → backends → tools → config).
// A module imports its own folder and layers below it only; docs/architecture/layers.md shows
// this table, and the last test keeps the two the same.
export const holodeckLayers: PackageLayers = {
  name: 'holodeck',
  sourceRoot: fileURLToPath(new URL('../../../src/', import.meta.url)),
  layers: [
    ['index.ts', 'cli'],
    ['serve', 'view', 'init'],
    ['chat', 'runner'],
    ['evals', 'recording', 'load-agent.ts'],
    ['backends'],
    ['tools'],
    ['config', 'load-user-module.ts', 'listen-http.ts'],
    [
      'json-schema',
      'errors.ts',
      'import-module.ts',
      'import-package.ts',
      'lock-files.ts',
      'holodeck-version.ts',
      'loopback-host.ts',
    ],
  ],
  debt: {
    'errors.ts -> backends':
      'AgentSessionError lives in the contract; errors.ts re-exports it, which closes the cycle config → errors → contract → config',
  },
};

const DOC = fileURLToPath(new URL('../../../../../docs/architecture/layers.md', import.meta.url));

describe('HoloDeck layers', () => {
  const findings = findLayerProblems(holodeckLayers);

  it('reads the import graph (the test can see what it checks)', () => {
    expect(findings.pairsRead).toBeGreaterThan(30);
  });

  it('places every folder and root file of src/ in a layer', () => {
    expect(findings.unplaced, 'add them to holodeckLayers (and docs/architecture/layers.md)').toEqual([]);
  });

  it('nothing imports a layer above its own, nor another folder of its layer', () => {
    expect(findings.newViolations).toEqual([]);
  });

  it('lists only debt that still exists', () => {
    expect(findings.settledDebt, 'remove these from holodeckLayers.debt').toEqual([]);
  });

  it('docs/architecture/layers.md shows this table (UPDATE_LAYER_DOCS=1 rewrites it)', () => {
    updateLayerSectionIfAsked(DOC, holodeckLayers);
    const documented = documentedLayerSection(DOC, 'holodeck') ?? '(no holodeck section)';
    expect(normalizeLayerSection(documented)).toBe(normalizeLayerSection(renderLayerSection(holodeckLayers)));
  });
});

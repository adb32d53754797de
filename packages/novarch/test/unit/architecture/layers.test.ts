import { fileURLToPath } from 'node:url';
import { describeLayerTests, type PackageLayers } from '@holodeck/testkit/import-graph';

// Novarch's layers, top first: the operator CLI, the server and its console, the remote client,
// the formatting both CLI and server print, what an operator can do, the HTTP schemas (wire),
// the three integrations (augur's decorator floor, the framework-neutral governor, the Claude
// hook gate), then the engine, rules, notifications and identities, the store, the model.
// docs/architecture/layers.md shows this table; the last test keeps the two the same.
export const novarchLayers: PackageLayers = {
  name: 'novarch',
  sourceRoot: fileURLToPath(new URL('../../../src/', import.meta.url)),
  layers: [
    ['index.ts', 'cli'],
    ['server'],
    ['console'],
    ['remote'],
    ['format'],
    ['operations'],
    ['wire'],
    ['augur'],
    ['governor'],
    ['gate'],
    ['engine'],
    ['rules'],
    ['notify', 'identity'],
    ['store'],
    ['errors.ts'],
    ['model'],
  ],
  debt: {
    'governor -> augur': 'the active-session state lives in augur: a layer below all three',
    'gate -> augur': 'the active-session state lives in augur: a layer below all three',
    'augur -> remote': 'augur chooses the embedded or remote engine itself: one small module',
  },
};

const DOC = fileURLToPath(new URL('../../../../../docs/architecture/layers.md', import.meta.url));

describeLayerTests('Novarch layers', novarchLayers, 'novarchLayers', DOC);

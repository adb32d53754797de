import { fileURLToPath } from 'node:url';
import { describeLayerTests, type PackageLayers } from '@holodeck/testkit/import-graph';

// Novarch's layers, top first: the operator CLI, the server and its console, the remote client,
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
    ['augur'],
    ['governor'],
    ['gate'],
    ['engine'],
    ['rules'],
    ['notify', 'identity'],
    ['store'],
    ['errors.ts'],
    ['model', 'support.ts'],
  ],
  debt: {
    'server -> cli':
      'routes call cli/operations and use its errors and rules formatting: an operations/ layer both use',
    'remote -> cli': 'the remote operator client implements types declared in cli/operations',
    'remote -> server': 'the HTTP schemas live in server/schemas: a wire/ layer for both',
    'rules -> server': 'the server config checks a public URL with server/check-public-url.ts',
    'governor -> augur': 'the active-session state lives in augur: a layer below all three',
    'gate -> augur': 'the active-session state lives in augur: a layer below all three',
    'augur -> remote': 'augur chooses the embedded or remote engine itself: one small module',
  },
};

const DOC = fileURLToPath(new URL('../../../../../docs/architecture/layers.md', import.meta.url));

describeLayerTests('Novarch layers', novarchLayers, 'novarchLayers', DOC);

import { fileURLToPath } from 'node:url';
import { describeLayerTests, type PackageLayers } from '@holodeck/testkit/import-graph';

// Novarch's layers, top first: the operator CLI, the server and its console, augur's decorator
// floor (it chooses the embedded or the remote engine), the remote client, the formatting both CLI
// and server print, what an operator can do, the HTTP schemas (wire), the framework-neutral
// governor, the Claude hook gate, the active session all three share, then the engine, rules,
// notifications and identities, the store, the model. Nothing imports upward: no debt is left.
// docs/architecture/layers.md shows this table; the last test keeps the two the same.
export const novarchLayers: PackageLayers = {
  name: 'novarch',
  sourceRoot: fileURLToPath(new URL('../../../src/', import.meta.url)),
  layers: [
    ['index.ts', 'cli'],
    ['server'],
    ['console'],
    ['augur'],
    ['remote'],
    ['format'],
    ['operations'],
    ['wire'],
    ['governor'],
    ['gate'],
    ['session'],
    ['engine'],
    ['rules'],
    ['notify', 'identity', 'telemetry'],
    ['store'],
    ['errors.ts', 'novarch-version.ts'],
    ['model', 'support.ts'],
    ['novarch-error.ts'],
  ],
  debt: {},
};

const DOC = fileURLToPath(new URL('../../../../../docs/architecture/layers.md', import.meta.url));

describeLayerTests('Novarch layers', novarchLayers, 'novarchLayers', DOC);

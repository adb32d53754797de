import { fileURLToPath } from 'node:url';
import { describeLayerTests, type PackageLayers } from '@holodeck/testkit/import-graph';

// HoloDeck's layers, top first (DESIGN.md: cli → runner/chat/view → backends → tools → config).
// A module imports its own folder and layers below it only; docs/architecture/layers.md shows
// this table, and the last test keeps the two the same.
export const holodeckLayers: PackageLayers = {
  name: 'holodeck',
  sourceRoot: fileURLToPath(new URL('../../../src/', import.meta.url)),
  layers: [
    ['index.ts', 'cli'],
    ['serve', 'view', 'init'],
    ['optimize'],
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
      'support.ts',
      'tool-name.ts',
      'telemetry',
    ],
    ['execution-result.ts'],
  ],
  debt: {},
};

const DOC = fileURLToPath(new URL('../../../../../docs/architecture/layers.md', import.meta.url));

describeLayerTests('HoloDeck layers', holodeckLayers, 'holodeckLayers', DOC);

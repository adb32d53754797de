// @holodeck/testkit/import-graph: the layer tests of a package.
export { describeLayerTests } from './describe-layer-tests.js';
export {
  documentedLayerSection,
  findLayerProblems,
  type LayerFindings,
  normalizeLayerSection,
  type PackageLayers,
  renderLayerSection,
  updateLayerSectionIfAsked,
} from './layer-test-support.js';

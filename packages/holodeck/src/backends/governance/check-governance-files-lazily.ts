import type { CheckGovernanceFiles } from '../../config/index.js';

/**
 * `checkGovernanceFiles` behind a dynamic import: Novarch (and its native SQLite module) is loaded
 * only when an agent has a `governance:` block, because CLI startup time is benchmarked.
 */
export const checkGovernanceFilesLazily: CheckGovernanceFiles = async (files) =>
  (await import('./check-governance-files.js')).checkGovernanceFiles(files);

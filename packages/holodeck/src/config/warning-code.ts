/**
 * Every warning HoloDeck emits (agent.yaml checks, backends' startup rules, session-start, test
 * runs, retrieval ingestion) has one of these codes: stable identifiers that tests, CI scripts
 * and `--json` readers match on. A new warning adds its code here (a unit test pins the list and
 * checks each code is emitted somewhere in src/).
 */
export const WARNING_CODES = [
  'auth-provider-ignored',
  'claude-block-ignored',
  'claude-md-present',
  'credentials-missing',
  'judge',
  'literal-password',
  'mcp-command-not-found',
  'model-call-warning',
  'model-field-ignored',
  'model-setting-compatibility',
  'model-setting-unsupported',
  'observability-unsupported',
  'retrieval-ingest',
  'temperature-unsupported',
  'tool-filtering-unsupported',
  'tool-names-resolved-at-run-start',
  'tool-off-in-tests',
] as const;

/** The code of a HoloDeck warning: one of `WARNING_CODES`. */
export type WarningCode = (typeof WARNING_CODES)[number];

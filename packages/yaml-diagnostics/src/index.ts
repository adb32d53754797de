export { allowedKeysAt } from './allowed-keys-at.js';
export { closestMatch, levenshtein, suggestionHint } from './did-you-mean.js';
export {
  describeParent,
  type FieldIssue,
  type FieldPath,
  formatFieldPath,
  type PathSegment,
} from './field-issue.js';
export { countProblems, type FileIssue, formatFileIssue } from './file-issue.js';
export { locateOffsetInScalar, locateYamlPath, type YamlPosition } from './locate-yaml-path.js';
export { mapZodIssues, type ZodIssueContext } from './map-zod-issues.js';
export {
  MAX_ALIAS_COUNT,
  type ParsedYaml,
  type PositionedProblem,
  parseYamlWithPositions,
} from './parse-yaml.js';
export { describeValue, describeValueBriefly, getAtPath, isRecord, toFieldPath } from './raw-value.js';

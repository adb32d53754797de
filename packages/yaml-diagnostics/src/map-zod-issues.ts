import type { z } from 'zod';
import { allowedKeysAt } from './allowed-keys-at.js';
import { closestMatch, suggestionHint } from './did-you-mean.js';
import { describeParent, type FieldIssue } from './field-issue.js';
import {
  describeValueBriefly,
  describeValue as describeValueInFull,
  getAtPath,
  isRecord,
  toFieldPath,
} from './raw-value.js';

type ZodIssue = z.core.$ZodIssue;

/** What the mapper needs besides the issue: the data, the schema, and which values came from `${VAR}`. */
export interface ZodIssueContext {
  /** Gives the keys each mapping accepts, for did-you-mean hints on unknown keys. */
  schema: z.core.$ZodType;
  data: unknown;
  /** JSON-encoded field paths whose value came from a `${VAR}` (variables always give strings). */
  substitutedPaths?: ReadonlySet<string>;
  /** What the file is called in hints, e.g. `agent.yaml`; default `the file`. */
  fileLabel?: string;
  /**
   * Terse messages (Novarch's files): values as `"yes"` rather than `the string "yes"`, and a
   * format issue (a URL, a pattern) in the schema's own words, without the value.
   */
  terse?: boolean;
}

const EXPECTED: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'a whole number',
  boolean: 'a boolean',
  object: 'a mapping (key: value lines)',
  record: 'a mapping (key: value lines)',
  array: 'a list',
};

/** Turns zod issues into messages for humans: what is wrong, where, and how to fix it. */
export function mapZodIssues(issues: readonly ZodIssue[], context: ZodIssueContext): FieldIssue[] {
  return issues.flatMap((issue) => mapIssue(issue, [], context));
}

function mapIssue(issue: ZodIssue, prefix: readonly PropertyKey[], context: ZodIssueContext): FieldIssue[] {
  const describeValue = context.terse ? describeValueBriefly : describeValueInFull;
  const path = toFieldPath([...prefix, ...issue.path]);
  const value = getAtPath(context.data, path);
  switch (issue.code) {
    case 'unrecognized_keys': {
      const allowed = allowedKeysAt(context.schema, context.data, path);
      return issue.keys.map((key) => ({
        path: [...path, key],
        anchor: 'key',
        message: `unknown key "${key}" ${describeParent(path)}`,
        hint: suggestionHint(key, allowed, 'allowed keys'),
      }));
    }
    case 'invalid_type': {
      const missing = missingKeyIssue(path, context.data);
      if (missing) return [missing];
      const expected = EXPECTED[issue.expected] ?? issue.expected;
      return [
        {
          path,
          message: `expected ${expected}, got ${describeValue(value)}`,
          hint: typeHint(issue.expected, value, path, context),
        },
      ];
    }
    case 'invalid_value': {
      const allowed = issue.values.map(String);
      const missing = missingKeyIssue(path, context.data);
      if (missing)
        return [{ ...missing, hint: `one of: ${allowed.map((option) => `"${option}"`).join(', ')}` }];
      return [
        {
          path,
          message: `expected ${allowed.length === 1 ? '' : 'one of '}${allowed.map((option) => `"${option}"`).join(', ')}; got ${describeValue(value)}`,
          ...didYouMean(value, allowed),
        },
      ];
    }
    case 'invalid_union':
      return mapUnionIssue(issue, path, value, context);
    case 'too_small':
    case 'too_big':
      return [{ path, message: describeBound(issue, value, describeValue) }];
    case 'invalid_format': {
      if (context.terse) return [{ path, message: issue.message }];
      if (issue.format === 'url')
        return [
          {
            path,
            message: `expected an http(s) URL, got ${describeValue(value)}`,
            hint: 'for example https://example.com/mcp',
          },
        ];
      return [{ path, message: `${issue.message}; got ${describeValue(value)}` }];
    }
    case 'custom': {
      const hint =
        isRecord(issue.params) && typeof issue.params.hint === 'string' ? issue.params.hint : undefined;
      return [{ path, message: issue.message, ...(hint === undefined ? {} : { hint }) }];
    }
    default:
      return [{ path, message: issue.message }];
  }
}

function missingKeyIssue(path: readonly (string | number)[], data: unknown): FieldIssue | undefined {
  const key = path.at(-1);
  const parentPath = path.slice(0, -1);
  const parent = getAtPath(data, parentPath);
  if (typeof key !== 'string' || !isRecord(parent) || key in parent) return undefined;
  return { path, message: `missing required key "${key}" ${describeParent(parentPath)}` };
}

function typeHint(
  expected: string,
  value: unknown,
  path: readonly (string | number)[],
  context: ZodIssueContext,
): string | undefined {
  if (typeof value === 'string' && context.substitutedPaths?.has(JSON.stringify(path))) {
    return `this value comes from an environment variable, and variables always give strings; write ${EXPECTED[expected] ?? expected} directly in ${context.fileLabel ?? 'the file'}`;
  }
  if (expected === 'boolean' && typeof value === 'string') return 'write true or false, without quotes';
  if (
    (expected === 'number' || expected === 'int') &&
    typeof value === 'string' &&
    value.trim() !== '' &&
    Number.isFinite(Number(value))
  ) {
    return 'write the number without quotes';
  }
  if (expected === 'string' && (typeof value === 'number' || typeof value === 'boolean')) {
    return `put it in quotes: "${String(value)}"`;
  }
  return undefined;
}

function mapUnionIssue(
  issue: Extract<ZodIssue, { code: 'invalid_union' }>,
  path: readonly (string | number)[],
  value: unknown,
  context: ZodIssueContext,
): FieldIssue[] {
  const describeValue = context.terse ? describeValueBriefly : describeValueInFull;
  if ('discriminator' in issue && typeof issue.discriminator === 'string') {
    const options = 'options' in issue && Array.isArray(issue.options) ? issue.options.map(String) : [];
    const quoted = options.map((option) => `"${option}"`).join(', ');
    const discriminatorValue = getAtPath(context.data, path);
    if (discriminatorValue === undefined) {
      const parentPath = path.slice(0, -1);
      return [
        {
          path,
          message: `missing required key "${issue.discriminator}" ${describeParent(parentPath)}`,
          hint: `one of: ${quoted}`,
        },
      ];
    }
    return [
      {
        path,
        message: `expected one of ${quoted}; got ${describeValue(discriminatorValue)}`,
        ...didYouMean(discriminatorValue, options),
      },
    ];
  }
  // A branch whose own type matched failed deeper inside: report that branch's problems.
  const deeper = issue.errors.find((branch) =>
    branch.every((inner) => inner.path.length > 0 || inner.code !== 'invalid_type'),
  );
  if (deeper) return deeper.flatMap((inner) => mapIssue(inner, path, context));
  const expected = issue.errors.flatMap((branch) =>
    branch.flatMap((inner) =>
      inner.code === 'invalid_type' ? [EXPECTED[inner.expected] ?? inner.expected] : [],
    ),
  );
  return [{ path, message: `expected ${[...new Set(expected)].join(' or ')}, got ${describeValue(value)}` }];
}

function describeBound(
  issue: Extract<ZodIssue, { code: 'too_small' | 'too_big' }>,
  value: unknown,
  describeValue: (value: unknown) => string,
): string {
  const small = issue.code === 'too_small';
  const limit = Number(small ? issue.minimum : issue.maximum);
  const got = describeValue(value);
  if (issue.origin === 'string') {
    if (small && limit === 1) return 'must not be empty';
    return `must be ${small ? 'at least' : 'at most'} ${limit} characters long`;
  }
  if (issue.origin === 'array' || issue.origin === 'set') {
    if (small && limit === 1) return 'must have at least one item';
    return `must have ${small ? 'at least' : 'at most'} ${limit} items, got ${Array.isArray(value) ? value.length : 0}`;
  }
  const inclusive = issue.inclusive !== false;
  const relation = small ? (inclusive ? 'at least' : 'greater than') : inclusive ? 'at most' : 'less than';
  return `must be ${relation} ${limit}, got ${got}`;
}

/** A did-you-mean hint when the value is a near miss of an allowed option (the message lists them all). */
function didYouMean(value: unknown, options: readonly string[]): { hint?: string } {
  const match = typeof value === 'string' ? closestMatch(value, options) : undefined;
  return match === undefined ? {} : { hint: `did you mean "${match}"?` };
}

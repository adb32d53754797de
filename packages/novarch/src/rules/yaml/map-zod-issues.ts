import { z } from 'zod';
import { closestMatch, suggestionHint } from './did-you-mean.js';
import { describeParent, describeValue, type FieldIssue, getAtPath, isRecord } from './field-issue.js';

type ZodIssue = z.core.$ZodIssue;

const EXPECTED: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'a whole number',
  boolean: 'a boolean',
  object: 'a mapping (key: value lines)',
  array: 'a list',
};

/**
 * Turns zod issues into messages for people: what is wrong, where, and how to fix it. `schema`
 * gives the keys each mapping accepts, for did-you-mean hints on unknown keys.
 */
export function mapZodIssues(
  issues: readonly ZodIssue[],
  schema: z.core.$ZodType,
  data: unknown,
): FieldIssue[] {
  return issues.flatMap((issue): FieldIssue[] => {
    const path = issue.path.map((segment) => (typeof segment === 'number' ? segment : String(segment)));
    const value = getAtPath(data, path);
    switch (issue.code) {
      case 'unrecognized_keys': {
        const allowed = allowedKeysAt(schema, path);
        return issue.keys.map((key) => ({
          path: [...path, key],
          anchor: 'key',
          message: `unknown key "${key}" ${describeParent(path)}`,
          hint: suggestionHint(key, allowed, 'allowed keys'),
        }));
      }
      case 'invalid_type': {
        const missing = missingKeyIssue(path, data);
        if (missing) return [missing];
        const expected = EXPECTED[issue.expected] ?? issue.expected;
        const quoted = typeof value === 'number' || typeof value === 'boolean';
        const hint =
          issue.expected === 'string' && quoted ? `put it in quotes: "${String(value)}"` : undefined;
        return [
          {
            path,
            message: `expected ${expected}, got ${describeValue(value)}`,
            ...(hint === undefined ? {} : { hint }),
          },
        ];
      }
      case 'invalid_value': {
        const allowed = issue.values.map(String);
        const missing = missingKeyIssue(path, data);
        if (missing)
          return [{ ...missing, hint: `one of: ${allowed.map((option) => `"${option}"`).join(', ')}` }];
        const match = typeof value === 'string' ? closestMatch(value, allowed) : undefined;
        return [
          {
            path,
            message: `expected one of ${allowed.map((option) => `"${option}"`).join(', ')}; got ${describeValue(value)}`,
            ...(match === undefined ? {} : { hint: `did you mean "${match}"?` }),
          },
        ];
      }
      case 'too_small':
      case 'too_big':
        return [{ path, message: describeBound(issue, value) }];
      default:
        return [{ path, message: issue.message }];
    }
  });
}

/** A `missing required key` issue when the value at `path` is absent from its mapping. */
function missingKeyIssue(path: readonly (string | number)[], data: unknown): FieldIssue | undefined {
  const key = path.at(-1);
  const parent = getAtPath(data, path.slice(0, -1));
  if (typeof key !== 'string' || !isRecord(parent) || key in parent) return undefined;
  return { path, message: `missing required key "${key}" ${describeParent(path.slice(0, -1))}` };
}

function describeBound(issue: Extract<ZodIssue, { code: 'too_small' | 'too_big' }>, value: unknown): string {
  const small = issue.code === 'too_small';
  const limit = Number(small ? issue.minimum : issue.maximum);
  if (issue.origin === 'string')
    return small && limit === 1
      ? 'must not be empty'
      : `must be ${small ? 'at least' : 'at most'} ${limit} characters long`;
  if (issue.origin === 'array')
    return small && limit === 1
      ? 'must have at least one item'
      : `must have ${small ? 'at least' : 'at most'} ${limit} items`;
  const inclusive = issue.inclusive !== false;
  const relation = small ? (inclusive ? 'at least' : 'greater than') : inclusive ? 'at most' : 'less than';
  return `must be ${relation} ${limit}, got ${describeValue(value)}`;
}

/** The keys the strict mapping at `path` accepts, found by walking the schema. */
function allowedKeysAt(schema: z.core.$ZodType, path: readonly (string | number)[]): string[] {
  let current: z.core.$ZodType | undefined = unwrap(schema);
  for (const segment of path) {
    if (current instanceof z.ZodObject && typeof segment === 'string') current = current.shape[segment];
    else if (current instanceof z.ZodRecord && typeof segment === 'string') current = current.valueType;
    else if (current instanceof z.ZodArray) current = current.element;
    else return [];
    if (current === undefined) return [];
    current = unwrap(current);
  }
  return current instanceof z.ZodObject ? Object.keys(current.shape) : [];
}

function unwrap(schema: z.core.$ZodType): z.core.$ZodType {
  let current = schema;
  while (
    current instanceof z.ZodOptional ||
    current instanceof z.ZodDefault ||
    current instanceof z.ZodNullable
  )
    current = current.unwrap();
  return current;
}

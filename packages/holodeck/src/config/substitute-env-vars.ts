import { type FieldIssue, isRecord, type PathSegment } from 'yaml-diagnostics';

/** The result of substituting `${VAR}` references in one string. */
export interface StringSubstitution {
  value: string;
  /** Names referenced, set or not. */
  referenced: string[];
  /** Names referenced without a default and not set. */
  unset: string[];
  /** `${...}` texts that are not a valid reference. */
  malformed: string[];
}

const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Replaces `${VAR}` and `${VAR:-default}` (default used when VAR is unset or empty, as in POSIX
 * shells); `$${` is an escape for a literal `${`. Text without `${` is returned unchanged.
 */
export function substituteString(text: string, env: Readonly<Record<string, string>>): StringSubstitution {
  const result: StringSubstitution = { value: '', referenced: [], unset: [], malformed: [] };
  let index = 0;
  while (index < text.length) {
    if (text.startsWith('$${', index)) {
      result.value += '${';
      index += 3;
      continue;
    }
    if (!text.startsWith('${', index)) {
      result.value += text[index];
      index += 1;
      continue;
    }
    const end = text.indexOf('}', index + 2);
    const body = end === -1 ? undefined : text.slice(index + 2, end);
    const separator = body?.indexOf(':-') ?? -1;
    const name = separator === -1 ? body : body?.slice(0, separator);
    if (body === undefined || name === undefined || !VARIABLE_NAME.test(name)) {
      result.malformed.push(end === -1 ? text.slice(index) : text.slice(index, end + 1));
      result.value += end === -1 ? text.slice(index) : text.slice(index, end + 1);
      index = end === -1 ? text.length : end + 1;
      continue;
    }
    result.referenced.push(name);
    const value = env[name];
    if (separator !== -1 && (value === undefined || value === '')) {
      result.value += body.slice(separator + 2);
    } else if (value === undefined) {
      result.unset.push(name);
      result.value += text.slice(index, end + 1);
    } else {
      result.value += value;
    }
    index = end + 1;
  }
  return result;
}

/** The result of substituting every string of a parsed document. */
export interface TreeSubstitution {
  value: unknown;
  issues: FieldIssue[];
  /** Paths (as `JSON.stringify(path)`) whose value came from a variable: for hints on type errors. */
  substitutedPaths: Set<string>;
  /** Paths (same encoding) that could not be substituted; other problems there are not reported twice. */
  failedPaths: Set<string>;
}

/**
 * Substitutes variables in the string values of already-parsed YAML, never in the raw text: a
 * `${X}` inside a comment is never seen, and a value holding a newline stays one string (it cannot
 * add keys). Keys are not substituted. Results stay strings: the schema does not coerce, so a
 * number or boolean must be written in agent.yaml itself (type errors on substituted values say so).
 */
export function substituteEnvVars(
  data: unknown,
  env: Readonly<Record<string, string>>,
  envFileHint: string,
): TreeSubstitution {
  const result: TreeSubstitution = {
    value: undefined,
    issues: [],
    substitutedPaths: new Set(),
    failedPaths: new Set(),
  };
  const walk = (value: unknown, path: PathSegment[]): unknown => {
    if (typeof value === 'string') {
      if (!value.includes('${')) return value;
      const substitution = substituteString(value, env);
      const key = JSON.stringify(path);
      if (substitution.referenced.length > 0) result.substitutedPaths.add(key);
      for (const name of substitution.unset) {
        result.failedPaths.add(key);
        result.issues.push({
          path,
          message: `environment variable "${name}" is not set`,
          hint: `set ${name} in ${envFileHint}, or give a default: \${${name}:-value}`,
        });
      }
      for (const reference of substitution.malformed) {
        result.failedPaths.add(key);
        result.issues.push({
          path,
          message: `"${reference}" is not a valid variable reference`,
          // biome-ignore lint/suspicious/noTemplateCurlyInString: shows the ${} syntax to the user
          hint: 'write ${NAME} or ${NAME:-default} (NAME: letters, digits and _), or $${ for a literal "${"',
        });
      }
      return substitution.value;
    }
    if (Array.isArray(value)) return value.map((item, index) => walk(item, [...path, index]));
    if (isRecord(value)) {
      // fromEntries defines own properties, so a "__proto__" key stays an ordinary key.
      return Object.fromEntries(
        Object.entries(value).map(([key, item]) => [key, walk(item, [...path, key])]),
      );
    }
    return value;
  };
  result.value = walk(data, []);
  return result;
}

/**
 * The JSON objects and arrays embedded in a text (in prose, in a fenced block, several of
 * them), outermost first. Scans for `{` and `[`, finds each one's balanced end (strings and
 * escapes honoured) and keeps the spans JSON.parse accepts; a span that parses is not searched
 * again inside.
 */
export function findJsonValues(text: string): unknown[] {
  const found: unknown[] = [];
  let index = 0;
  while (index < text.length) {
    const char = text[index];
    if (char !== '{' && char !== '[') {
      index += 1;
      continue;
    }
    const end = balancedEnd(text, index);
    if (end !== undefined) {
      try {
        found.push(JSON.parse(text.slice(index, end + 1)));
        index = end + 1;
        continue;
      } catch {
        // Not JSON (e.g. "{name}" in prose): look for a value starting further on.
      }
    }
    index += 1;
  }
  return found;
}

/** Index of the bracket closing the one at `start`, or undefined when it is never closed. */
function balancedEnd(text: string, start: number): number | undefined {
  const stack: string[] = [];
  let inString = false;
  for (let index = start; index < text.length; index += 1) {
    const char = text[index];
    if (inString) {
      if (char === '\\') index += 1;
      else if (char === '"') inString = false;
      continue;
    }
    if (char === '"') inString = true;
    else if (char === '{') stack.push('}');
    else if (char === '[') stack.push(']');
    else if (char === '}' || char === ']') {
      if (stack.pop() !== char) return undefined;
      if (stack.length === 0) return index;
    }
  }
  return undefined;
}

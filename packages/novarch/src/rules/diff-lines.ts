/** One line of a line diff: kept, only in the old text, or only in the new one. */
export interface DiffLine {
  kind: 'same' | 'removed' | 'added';
  text: string;
  /** 1-based line number in the old text (`same`, `removed`). */
  oldLine?: number;
  /** 1-based line number in the new text (`same`, `added`). */
  newLine?: number;
}

/**
 * The most line pairs `diffLines` compares (changed lines of the old text × of the new one, after
 * the common start and end are set apart): 4 million, 16 MB of table.
 */
export const MAX_DIFF_PAIRS = 4_000_000;

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

/**
 * A line diff of two texts (a longest common subsequence, so the fewest lines are shown as
 * changed), in order. Rules files are short; past `MAX_DIFF_PAIRS` the changed middle is shown
 * as all removed then all added, rather than spending quadratic memory.
 */
export function diffLines(oldText: string, newText: string): DiffLine[] {
  const a = splitLines(oldText);
  const b = splitLines(newText);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const out: DiffLine[] = [];
  for (let index = 0; index < start; index++)
    out.push({ kind: 'same', text: a[index] ?? '', oldLine: index + 1, newLine: index + 1 });
  const middleA = a.slice(start, endA);
  const middleB = b.slice(start, endB);
  out.push(...diffMiddle(middleA, middleB, start, start));
  for (let offset = 0; endA + offset < a.length; offset++) {
    out.push({
      kind: 'same',
      text: a[endA + offset] ?? '',
      oldLine: endA + offset + 1,
      newLine: endB + offset + 1,
    });
  }
  return out;
}

function diffMiddle(a: string[], b: string[], baseA: number, baseB: number): DiffLine[] {
  const removedAll = () =>
    a.map((text, index) => ({ kind: 'removed' as const, text, oldLine: baseA + index + 1 }));
  const addedAll = () =>
    b.map((text, index) => ({ kind: 'added' as const, text, newLine: baseB + index + 1 }));
  if (a.length === 0 || b.length === 0 || a.length * b.length > MAX_DIFF_PAIRS) {
    return [...removedAll(), ...addedAll()];
  }
  // lengths[i][j]: the longest common subsequence of a[i..] and b[j..].
  const width = b.length + 1;
  const lengths = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lengths[i * width + j] =
        a[i] === b[j]
          ? (lengths[(i + 1) * width + j + 1] ?? 0) + 1
          : Math.max(lengths[(i + 1) * width + j] ?? 0, lengths[i * width + j + 1] ?? 0);
    }
  }
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      out.push({ kind: 'same', text: a[i] ?? '', oldLine: baseA + i + 1, newLine: baseB + j + 1 });
      i++;
      j++;
    } else if ((lengths[(i + 1) * width + j] ?? 0) >= (lengths[i * width + j + 1] ?? 0)) {
      out.push({ kind: 'removed', text: a[i] ?? '', oldLine: baseA + i + 1 });
      i++;
    } else {
      out.push({ kind: 'added', text: b[j] ?? '', newLine: baseB + j + 1 });
      j++;
    }
  }
  for (; i < a.length; i++) out.push({ kind: 'removed', text: a[i] ?? '', oldLine: baseA + i + 1 });
  for (; j < b.length; j++) out.push({ kind: 'added', text: b[j] ?? '', newLine: baseB + j + 1 });
  return out;
}

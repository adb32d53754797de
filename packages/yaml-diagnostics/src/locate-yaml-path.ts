import { type Document, isMap, isNode, isScalar, isSeq, type LineCounter, type Node } from 'yaml';
import type { FieldPath } from './field-issue.js';

/** A 1-based position in a YAML file. */
export interface YamlPosition {
  line: number;
  column: number;
}

/**
 * Finds where a field path lives in the document. A scalar points at its value; a mapping or list
 * that is the value of a key points at that key (`model:`), which is where users look. When the path
 * does not exist (a missing required key) the deepest existing parent is returned. With anchor `key`,
 * the last segment points at the key itself (unknown and duplicate keys).
 */
export function locateYamlPath(
  document: Document,
  lineCounter: LineCounter,
  path: FieldPath,
  anchor: 'key' | 'value' = 'value',
): YamlPosition {
  const at = (node: Node | null | undefined): YamlPosition | undefined => {
    if (!node?.range) return undefined;
    const { line, col } = lineCounter.linePos(node.range[0]);
    return { line, column: col };
  };
  let position = at(document.contents) ?? { line: 1, column: 1 };
  let node: unknown = document.contents;
  for (const [index, segment] of path.entries()) {
    const last = index === path.length - 1;
    if (isSeq(node) && typeof segment === 'number') {
      const item = node.items[segment];
      if (item === undefined) break;
      position = at(isNode(item) ? item : null) ?? position;
      node = item;
      continue;
    }
    if (!isMap(node)) break;
    const pair = node.items.find(
      (candidate) => isScalar(candidate.key) && String(candidate.key.value) === String(segment),
    );
    if (!pair) break;
    const keyNode = isScalar(pair.key) ? pair.key : null;
    const value = pair.value;
    const valueIsEmpty = !value || (isScalar(value) && value.value === null);
    if ((last && anchor === 'key') || valueIsEmpty || isMap(value) || isSeq(value)) {
      position = at(keyNode) ?? position;
    } else {
      position = at(isNode(value) ? value : null) ?? position;
    }
    node = value;
  }
  return position;
}

/**
 * The position of character `offset` of the string value at `path`, when the YAML source spells
 * the value out verbatim (a plain scalar, or a quoted one without escapes). Undefined otherwise
 * (block scalars, folded lines, escapes): callers then fall back to the start of the value.
 */
export function locateOffsetInScalar(
  document: Document,
  lineCounter: LineCounter,
  source: string,
  path: FieldPath,
  offset: number,
): YamlPosition | undefined {
  const node = document.getIn(path, true);
  if (!isScalar(node) || typeof node.value !== 'string' || !node.range) return undefined;
  const raw = source.slice(node.range[0], node.range[1]);
  let start: number;
  if (raw === node.value) start = node.range[0];
  else if (raw.length === node.value.length + 2 && raw.slice(1, -1) === node.value) start = node.range[0] + 1;
  else return undefined;
  const { line, col } = lineCounter.linePos(start + Math.min(offset, node.value.length));
  return { line, column: col };
}

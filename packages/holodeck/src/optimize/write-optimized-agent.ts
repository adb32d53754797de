import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type DiffLine, diffLines } from 'novarch';
import { isMap, isSeq, parseDocument } from 'yaml';
import type { CandidateChanges } from './candidate.js';

/** The optimized agent beside agent.yaml, and its diff. */
export interface OptimizedAgent {
  file: string;
  diffFile: string;
  diff: string;
}

/** `agent.yaml` → `agent.optimized.yaml`, `support.yml` → `support.optimized.yml`. */
export function optimizedFileName(agentFile: string): string {
  const extension = path.extname(agentFile);
  return path.join(
    path.dirname(agentFile),
    `${path.basename(agentFile, extension)}.optimized${extension || '.yaml'}`,
  );
}

/**
 * agent.yaml with a candidate's changes, edited in place in its YAML document so comments, order
 * and `${VAR}`s elsewhere stay as written; new instructions become `instructions.inline`.
 */
export function applyChangesToYaml(text: string, changes: CandidateChanges, header: string): string {
  const document = parseDocument(text);
  if (changes.instructions !== undefined) document.setIn(['instructions'], { inline: changes.instructions });
  if (changes.temperature !== undefined) document.setIn(['model', 'temperature'], changes.temperature);
  if (changes.model !== undefined) document.setIn(['model', 'name'], changes.model);
  if (changes.max_turns !== undefined) {
    document.setIn(['max_turns'], changes.max_turns);
    if (document.hasIn(['claude', 'max_turns'])) document.deleteIn(['claude', 'max_turns']);
  }
  const tools = document.get('tools', true);
  for (const [name, description] of Object.entries(changes.tool_descriptions ?? {})) {
    if (!isSeq(tools)) break;
    const index = tools.items.findIndex((item) => isMap(item) && item.get('name') === name);
    if (index >= 0) document.setIn(['tools', index, 'description'], description);
  }
  document.commentBefore = document.commentBefore ? `${header}\n${document.commentBefore}` : header;
  return document.toString({ lineWidth: 0 });
}

/** A unified diff (3 lines of context) of two texts. */
export function unifiedDiff(oldName: string, newName: string, before: string, after: string): string {
  const lines = diffLines(before, after);
  const changed = lines.flatMap((line, index) => (line.kind === 'same' ? [] : [index]));
  if (!changed.length) return '';
  const hunks: [number, number][] = [];
  for (const index of changed) {
    const last = hunks.at(-1);
    if (last && index - last[1] <= 7) last[1] = index;
    else hunks.push([index, index]);
  }
  const out = [`--- ${oldName}`, `+++ ${newName}`];
  for (const [first, last] of hunks) {
    const slice = lines.slice(Math.max(0, first - 3), Math.min(lines.length, last + 4));
    const oldStart = slice.find((line) => line.oldLine !== undefined)?.oldLine ?? 0;
    const newStart = slice.find((line) => line.newLine !== undefined)?.newLine ?? 0;
    const oldCount = slice.filter((line) => line.kind !== 'added').length;
    const newCount = slice.filter((line) => line.kind !== 'removed').length;
    out.push(`@@ -${oldStart},${oldCount} +${newStart},${newCount} @@`);
    out.push(
      ...slice.map(
        (line: DiffLine) => `${line.kind === 'same' ? ' ' : line.kind === 'added' ? '+' : '-'}${line.text}`,
      ),
    );
  }
  return `${out.join('\n')}\n`;
}

/**
 * Writes `agent.optimized.yaml` beside agent.yaml (never over it) and `<folder>/agent.optimized.diff`
 * in the optimization's folder; returns both and the diff.
 */
export async function writeOptimizedAgent(
  agentFile: string,
  changes: CandidateChanges,
  folder: string,
  header: string,
): Promise<OptimizedAgent> {
  const before = await readFile(agentFile, 'utf8');
  const after = applyChangesToYaml(before, changes, header);
  const file = optimizedFileName(agentFile);
  if (path.resolve(file) === path.resolve(agentFile))
    throw new Error('optimize would overwrite agent.yaml (this is a bug).');
  await writeFile(file, after);
  const diff = unifiedDiff(path.basename(agentFile), path.basename(file), before, after);
  const diffFile = path.join(folder, `${path.basename(file, path.extname(file))}.diff`);
  await writeFile(diffFile, diff);
  return { file, diffFile, diff };
}

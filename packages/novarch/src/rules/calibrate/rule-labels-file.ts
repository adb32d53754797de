import { readFile, rename, writeFile } from 'node:fs/promises';
import { isMap, isNode, isSeq, LineCounter, parseDocument, type YAMLSeq } from 'yaml';
import { z } from 'zod';
import { OperatorUsageError } from '../../errors.js';
import type { LabelEntry } from './rule-labels.js';

const LabelEntrySchema = z.strictObject({
  action: z.string().min(1),
  label: z.enum(['pass', 'kill']),
  by: z.string().min(1).optional(),
  comment: z.string().optional(),
  at: z.string().optional(),
});
const LabelsFileSchema = z.strictObject({ labels: z.array(LabelEntrySchema) });

function isMissing(error: unknown): boolean {
  return error instanceof Error && 'code' in error && error.code === 'ENOENT';
}

/**
 * Reads a labels file (`labels:`, a list of `{action, label: pass | kill, by?, comment?, at?}`). A
 * missing file holds no labels; a bad one is refused with the line and field of each problem.
 */
export async function readLabelsFile(file: string): Promise<LabelEntry[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if (isMissing(error)) return [];
    throw error;
  }
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter });
  if (document.errors.length > 0)
    throw new OperatorUsageError(
      `${file}: invalid YAML: ${document.errors[0]?.message.split('\n')[0] ?? ''}`,
    );
  const parsed = LabelsFileSchema.safeParse(document.toJS() ?? { labels: [] });
  if (parsed.success) return parsed.data.labels;
  const problems = parsed.error.issues.map((issue) => {
    const keys = issue.path.filter((part): part is string | number => typeof part !== 'symbol');
    const node: unknown = document.getIn(keys, true);
    const where = isNode(node) && node.range ? lineCounter.linePos(node.range[0]).line : undefined;
    const field = issue.path
      .map((part) => (typeof part === 'number' ? `[${part}]` : `.${String(part)}`))
      .join('');
    return `${file}${where === undefined ? '' : `:${where}`}  ${field.replace(/^\./, '')}: ${issue.message}`;
  });
  throw new OperatorUsageError(
    `${problems.join('\n')}\n    hint: each label is {action: <action id>, label: pass | kill}; novarch rules label writes them`,
  );
}

/** Appends a label to the file (created when missing), keeping its comments; written whole, then renamed. */
export async function appendLabelEntry(file: string, entry: LabelEntry): Promise<void> {
  await readLabelsFile(file);
  let text = '';
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if (!isMissing(error)) throw error;
  }
  const document = parseDocument(text.trim() === '' ? 'labels: []\n' : text);
  const contents = document.contents;
  let list: YAMLSeq | undefined;
  if (isMap(contents)) {
    const found = contents.get('labels', true);
    if (isSeq(found)) list = found;
  }
  if (list === undefined) throw new OperatorUsageError(`${file} has no labels: list`);
  list.flow = false;
  list.add(
    document.createNode(Object.fromEntries(Object.entries(entry).filter(([, value]) => value !== undefined))),
  );
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, document.toString());
  await rename(temporary, file);
}

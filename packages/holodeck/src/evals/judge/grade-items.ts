import type { JudgeGrade } from './run-judge-metric.js';

/** How many rejected items a reason lists before "and N more". */
const MAX_LISTED = 5;

/** How to grade a list of per-item verdicts (claims, statements, sentences, chunks). */
export interface GradeItemsOptions<Item> {
  items: readonly Item[];
  /** Whether an item counts for the score (supported, relevant, attributable). */
  kept(item: Item): boolean;
  /** How a rejected item is named in the reason: its text (quoted) or a label like `#2`. */
  label(item: Item, index: number): string;
  reason(item: Item): string;
  /** e.g. `claims supported by the context`. */
  countLabel: string;
  /** e.g. `Unsupported`. */
  rejectedLabel: string;
  /** The grade when the judge found no items at all. */
  whenEmpty: JudgeGrade;
  /** The score from the kept flags; default kept / total. */
  score?(kept: readonly boolean[]): number;
}

/**
 * A grade from per-item verdicts, with a reason that counts them and lists the rejected ones with
 * the judge's reasons, e.g. `2 of 3 claims supported by the context. Unsupported: "…" (…).`
 */
export function gradeItems<Item>(options: GradeItemsOptions<Item>): JudgeGrade {
  if (options.items.length === 0) return options.whenEmpty;
  const flags = options.items.map((item) => options.kept(item));
  const rejected = options.items.flatMap((item, index) =>
    flags[index] ? [] : [`${options.label(item, index)} (${shorten(options.reason(item))})`],
  );
  const keptCount = flags.length - rejected.length;
  const head = `${keptCount} of ${flags.length} ${options.countLabel}.`;
  const more = rejected.length > MAX_LISTED ? `; and ${rejected.length - MAX_LISTED} more` : '';
  const tail =
    rejected.length === 0
      ? ''
      : ` ${options.rejectedLabel}: ${rejected.slice(0, MAX_LISTED).join('; ')}${more}.`;
  return {
    score: options.score ? options.score(flags) : keptCount / flags.length,
    reason: `${head}${tail}`,
  };
}

/** An item text for a reason: one line, at most `max` characters, quoted. */
export function quoteItem(text: string): string {
  return JSON.stringify(shorten(text));
}

function shorten(text: string, max = 160): string {
  const oneLine = text
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[.\s]+$/, '');
  return oneLine.length > max ? `${oneLine.slice(0, max - 1)}…` : oneLine;
}

/** One entry of a PDF's outline: its title, its depth (1 = top level) and the page it points to. */
export interface OutlineEntry {
  title: string;
  depth: number;
  page: number;
}

/** A line of PDF text that markdown would read as structure (a heading or a fence), escaped. */
const escapeLine = (line: string) => line.replace(/^(\s*)(#{1,6}(?:\s|$)|```|~~~)/, '$1\\$2');

const squash = (text: string) => text.replace(/\s+/g, ' ').trim().toLowerCase();

/**
 * Pages of PDF text as markdown with the outline's entries as headings: an entry's heading goes
 * before the line of its page that starts with its title (else at the top of the page), at its
 * depth; each page starts with the headings in force where it begins, so a chunk of any page
 * carries the heading path of the section it is in. Other lines are escaped so that none reads
 * as a heading.
 */
export function headingsFromOutline(
  pages: readonly { page: number; text: string }[],
  outline: readonly OutlineEntry[],
): { page: number; text: string }[] {
  const chain: OutlineEntry[] = [];
  const enter = (entry: OutlineEntry) => {
    while (chain.length && (chain.at(-1)?.depth ?? 0) >= entry.depth) chain.pop();
    chain.push(entry);
  };
  const heading = (entry: OutlineEntry) => `${'#'.repeat(Math.min(6, entry.depth))} ${entry.title}`;
  return pages.map(({ page, text }) => {
    const starting = chain.map(heading);
    const entries = outline.filter((entry) => entry.page === page);
    const lines = text.split('\n').map(escapeLine);
    const out: string[] = [];
    let next = 0;
    const placed = new Set<OutlineEntry>();
    for (const line of lines) {
      const entry = entries[next];
      if (entry && squash(line).startsWith(squash(entry.title))) {
        out.push('', heading(entry), '');
        enter(entry);
        placed.add(entry);
        next++;
        const rest = line.trim().slice(entry.title.length).trim();
        if (rest) out.push(rest);
        continue;
      }
      out.push(line);
    }
    // Entries whose title was not found in the page's text start at the top of the page.
    const unplaced = entries.filter((entry) => !placed.has(entry));
    for (const entry of unplaced) enter(entry);
    const top = unplaced.length ? [...starting, ...unplaced.map(heading)] : starting;
    return { page, text: [...top, '', ...out].join('\n').trim() };
  });
}

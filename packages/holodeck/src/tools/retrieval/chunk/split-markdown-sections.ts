/** One heading's section of a markdown document: its heading path and its blocks. */
export interface MarkdownSection {
  /** Headings from the top level down to this section's own; empty before the first heading. */
  headingPath: string[];
  /** Paragraphs, list runs, tables and fenced code blocks, each kept whole. */
  blocks: string[];
}

const HEADING = /^(#{1,6})\s+(.+?)\s*#*\s*$/;
const FENCE = /^\s{0,3}(```|~~~)/;
const TABLE_ROW = /^\s*\|/;

/**
 * Splits markdown into sections at ATX headings (`#` … `######`), each with the chain of its
 * parent headings. Inside a section, text is cut into blocks at blank lines, except that a fenced
 * code block or a table is always one block, whatever blank lines or pipes it contains.
 */
export function splitMarkdownSections(markdown: string): MarkdownSection[] {
  const sections: MarkdownSection[] = [];
  const stack: { level: number; title: string }[] = [];
  let current: MarkdownSection = { headingPath: [], blocks: [] };
  let block: string[] = [];
  let fence: string | undefined;
  let inTable = false;

  const endBlock = () => {
    const text = block.join('\n').trim();
    if (text) current.blocks.push(text);
    block = [];
    inTable = false;
  };

  for (const line of markdown.replace(/\r\n?/g, '\n').split('\n')) {
    if (fence !== undefined) {
      block.push(line);
      if (line.trimStart().startsWith(fence)) {
        fence = undefined;
        endBlock();
      }
      continue;
    }
    const fenceMatch = FENCE.exec(line);
    if (fenceMatch) {
      endBlock();
      fence = fenceMatch[1];
      block.push(line);
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading?.[1] && heading[2]) {
      endBlock();
      if (current.blocks.length || current.headingPath.length) sections.push(current);
      const level = heading[1].length;
      while (stack.length && (stack.at(-1)?.level ?? 0) >= level) stack.pop();
      stack.push({ level, title: heading[2] });
      current = { headingPath: stack.map((entry) => entry.title), blocks: [] };
      continue;
    }
    const tableRow = TABLE_ROW.test(line);
    if (tableRow !== inTable && block.length) endBlock();
    if (line.trim() === '') {
      endBlock();
      continue;
    }
    inTable = tableRow;
    block.push(line);
  }
  endBlock();
  if (current.blocks.length || current.headingPath.length) sections.push(current);
  return sections;
}

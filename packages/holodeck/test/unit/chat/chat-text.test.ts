import { describe, expect, it } from 'vitest';
import { createChatStyle, terminalSupportsHyperlinks } from '../../../src/chat/chat-style.js';
import { neutraliseTerminalText } from '../../../src/chat/neutralise-terminal-text.js';
import { renderMarkdown } from '../../../src/chat/render-markdown.js';
import { terminalTextWidth, wrapForTerminal, wrapLine } from '../../../src/chat/terminal-text-width.js';

// What the chat prints of model and tool text: neutralised, then rendered as markdown fitted to
// the terminal's width.

const plain = createChatStyle(false);
const colour = createChatStyle(true);

describe('neutraliseTerminalText', () => {
  it('drops escape sequences that move the cursor, clear, retitle or write the clipboard', () => {
    expect(neutraliseTerminalText('a\u001b[2J\u001b[Hb')).toBe('ab');
    expect(neutraliseTerminalText('x\u001b]0;pwned\u0007y')).toBe('xy');
    expect(neutraliseTerminalText('x\u001b]52;c;ZXZpbA==\u001b\\y')).toBe('xy');
    expect(neutraliseTerminalText('red \u001b[31mtext\u001b[0m')).toBe('red text');
    // A lone ESC (here before RIS, 'ESC c') goes; what follows is plain text.
    expect(neutraliseTerminalText('reset\u001bc!')).toBe('resetc!');
  });

  it('shows other control characters as �, including one-byte C1 CSI, and keeps tabs and newlines', () => {
    expect(neutraliseTerminalText('bell\u0007 back\bspace')).toBe('bell\ufffd back\ufffdspace');
    expect(neutraliseTerminalText('c1 \u009b31m')).toBe('c1 \ufffd31m');
    expect(neutraliseTerminalText('a\tb\nc\r\nd')).toBe('a\tb\nc\nd');
    expect(neutraliseTerminalText('over\rwrite')).toBe('over\ufffdwrite');
  });
});

describe('wrapLine and terminalTextWidth', () => {
  it('counts wide characters as 2 columns and colour codes as none', () => {
    expect(terminalTextWidth('日本')).toBe(4);
    expect(terminalTextWidth(colour.bold('abc'))).toBe(3);
    expect(terminalTextWidth('e\u0301')).toBe(1);
  });

  it('wraps at word boundaries and cuts words longer than the width', () => {
    expect(wrapLine('the quick brown fox jumps over', 12)).toEqual([
      'the quick ',
      'brown fox ',
      'jumps over',
    ]);
    expect(wrapLine('a'.repeat(25), 10)).toEqual(['a'.repeat(10), 'a'.repeat(10), 'a'.repeat(5)]);
    expect(wrapLine('short', 40)).toEqual(['short']);
  });

  it('wraps printed text under itself: a two-column row under its second column, a diff line under its text', () => {
    const help = '  /save [file]  write the transcript: markdown, or JSON for a .json file';
    expect(wrapForTerminal(help, 40).split('\n')).toEqual([
      '  /save [file]  write the transcript:',
      '                markdown, or JSON for a',
      '                .json file',
    ]);
    expect(wrapForTerminal('  + a line of content that is long enough to wrap', 30).split('\n')).toEqual([
      '  + a line of content that is',
      '    long enough to wrap',
    ]);
    for (const line of wrapForTerminal(help, 40).split('\n'))
      expect(terminalTextWidth(line)).toBeLessThan(40);
  });
});

describe('renderMarkdown', () => {
  it('renders headings, emphasis, code spans, links and lists without markup', () => {
    const text = renderMarkdown(
      '# Title\n\nSome **bold**, *em* and `code` with [a link](https://example.com).\n\n- one\n- two\n\n1. first\n2. second\n\n- [x] done\n- [ ] open',
      80,
      plain,
    );
    expect(text.split('\n')).toEqual([
      'Title',
      '',
      'Some bold, em and code with a link (https://example.com).',
      '',
      '• one',
      '• two',
      '',
      '1. first',
      '2. second',
      '',
      '☑ done',
      '☐ open',
    ]);
  });

  it('keeps code blocks line for line, indented, with their language', () => {
    const text = renderMarkdown('```ts\nconst a = 1;\n  nested();\n```', 80, plain);
    expect(text.split('\n')).toEqual(['  ts', '  const a = 1;', '    nested();']);
  });

  it('cuts a code line too long for the width and goes on indented', () => {
    const text = renderMarkdown(`\`\`\`\n${'x'.repeat(45)}\n\`\`\``, 22, plain);
    expect(text.split('\n')).toEqual([`  ${'x'.repeat(20)}`, `  ${'x'.repeat(20)}`, '  xxxxx']);
  });

  it('honours the alignment of table columns', () => {
    const table = '| left | centre | right |\n| :--- | :---: | ---: |\n| a | b | c |';
    expect(renderMarkdown(table, 80, plain).split('\n')[3]).toBe('│ a    │   b    │     c │');
  });

  it('makes links OSC 8 hyperlinks where the terminal supports them, and shows the address elsewhere', () => {
    const linked = createChatStyle(false, { hyperlinks: true });
    expect(renderMarkdown('see [the docs](https://example.com/café)', 80, linked)).toBe(
      'see \u001b]8;;https://example.com/caf%C3%A9\u001b\\the docs\u001b]8;;\u001b\\',
    );
    expect(renderMarkdown('see [the docs](https://example.com/a)', 80, plain)).toBe(
      'see the docs (https://example.com/a)',
    );
    // A hyperlink takes the columns of its text only.
    expect(terminalTextWidth(linked.link('docs', 'https://example.com'))).toBe(4);
    expect(terminalSupportsHyperlinks({ TERM_PROGRAM: 'iTerm.app' })).toBe(true);
    expect(terminalSupportsHyperlinks({ VTE_VERSION: '7200' })).toBe(true);
    expect(terminalSupportsHyperlinks({ TERM: 'xterm-256color' })).toBe(false);
    expect(terminalSupportsHyperlinks({ TERM_PROGRAM: 'iTerm.app', FORCE_HYPERLINK: '0' })).toBe(false);
    expect(terminalSupportsHyperlinks({ FORCE_HYPERLINK: '1' })).toBe(true);
  });

  it('fits paragraphs and list items to the width', () => {
    const long = 'word '.repeat(40).trim();
    for (const width of [30, 45, 80]) {
      const lines = renderMarkdown(`${long}\n\n- ${long}\n\n> ${long}`, width, plain).split('\n');
      expect(Math.max(...lines.map(terminalTextWidth))).toBeLessThanOrEqual(width);
      expect(lines.filter((line) => line.startsWith('  word')).length).toBeGreaterThan(0);
    }
  });

  it('draws a table with borders, shrinking its widest column to fit the width', () => {
    const table =
      '| id | note |\n| --- | --- |\n| 1 | short |\n| 2 | a very long note that does not fit in a narrow terminal |';
    const wide = renderMarkdown(table, 100, plain).split('\n');
    // A column is at least 3 wide.
    expect(wide).toEqual([
      '┌─────┬─────────────────────────────────────────────────────────┐',
      '│ id  │ note                                                    │',
      '├─────┼─────────────────────────────────────────────────────────┤',
      '│ 1   │ short                                                   │',
      '│ 2   │ a very long note that does not fit in a narrow terminal │',
      '└─────┴─────────────────────────────────────────────────────────┘',
    ]);
    const narrow = renderMarkdown(table, 40, plain).split('\n');
    expect(narrow.every((line) => terminalTextWidth(line) <= 40)).toBe(true);
    expect(narrow[4]).toMatch(/^│ 2 {3}│ a very long note .*… │$/);
  });

  it('neutralises control sequences in the markdown; only its own colour codes remain', () => {
    const text = renderMarkdown('**hi**\u001b]0;title\u0007 there\u001b[2J', 80, colour);
    expect(text).toBe('\u001b[1mhi\u001b[22m there');
  });
});

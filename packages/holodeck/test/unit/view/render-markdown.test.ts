import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../../src/view/pages/render-markdown.js';
import { prettyResult, readToolError, toolDisplayName } from '../../../src/view/pages/tool-display.js';

describe('renderMarkdown (answers on the case page)', () => {
  it('renders the Markdown people write', () => {
    expect(renderMarkdown('**Order A-1001** has *shipped*.\n\n- one\n- `two`\n\n```\nx < y\n```').value).toBe(
      '<div class="md"><p><strong>Order A-1001</strong> has <em>shipped</em>.</p><ul><li><p>one</p></li><li><p><code>two</code></p></li></ul><pre><code>x &lt; y</code></pre></div>',
    );
  });
  it('never lets HTML from the model through: tags, event handlers, script links', () => {
    const out = renderMarkdown(
      'Hi <img src=x onerror=alert(1)> <script>alert(2)</script>\n\n<div onclick="x()">block</div>\n\n[click](javascript:alert(3)) ![pic](javascript:alert(4))',
    ).value;
    expect(out).not.toMatch(/<(img|script|div onclick)/);
    expect(out).not.toContain('href="javascript');
    expect(out).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(out).toContain('click (javascript:alert(3))');
    expect(out).toContain('[image: pic]');
  });
  it('keeps http(s) links, with rel set', () => {
    expect(renderMarkdown('[docs](https://example.com/a?b=1&c=2)').value).toBe(
      '<div class="md"><p><a href="https://example.com/a?b=1&amp;c=2" rel="noopener noreferrer nofollow">docs</a></p></div>',
    );
  });
  it('turns headings into strong text (the page keeps its own outline)', () => {
    expect(renderMarkdown('# Title').value).toBe(
      '<div class="md"><p class="md-heading"><strong>Title</strong></p></div>',
    );
  });
});

describe('tool cards', () => {
  it.each([
    ['mcp__holodeck_tools__lookup_order', 'lookup_order'],
    ['mcp__everything__echo', 'everything › echo'],
    ['Read', 'Read'],
  ])('%s reads as %s', (name, shown) => {
    expect(toolDisplayName(name)).toBe(shown);
  });
  it('pretty-prints JSON results and leaves other text alone', () => {
    expect(prettyResult('{"status":"shipped","items":[1,2]}')).toBe(
      '{\n  "status": "shipped",\n  "items": [\n    1,\n    2\n  ]\n}',
    );
    expect(prettyResult('{not json')).toBe('{not json');
    expect(prettyResult('plain')).toBe('plain');
  });
  it('shows a Novarch refusal without the hook plumbing, with its rules', () => {
    expect(
      readToolError(
        'PreToolUse:mcp__holodeck_tools__refund_order hook error: Novarch: killed: a refund needs a prior lookup of the same order [rules: TEAM-1, TEAM-3]',
      ),
    ).toEqual({
      by: 'Novarch',
      reason: 'killed: a refund needs a prior lookup of the same order',
      rules: ['TEAM-1', 'TEAM-3'],
    });
    expect(readToolError('Novarch: held for an operator; timed out')).toEqual({
      by: 'Novarch',
      reason: 'held for an operator; timed out',
      rules: [],
    });
    expect(readToolError('PreToolUse:Bash hook error: Bash is not enabled')).toEqual({
      by: 'HoloDeck',
      reason: 'Bash is not enabled',
      rules: [],
    });
    expect(readToolError('order not found')).toEqual({ reason: 'order not found', rules: [] });
  });
});

import { makeDocx, makePdf } from './make-documents.js';

/** A small mixed corpus (markdown, HTML, PDF, DOCX) as files for an agent's docs folder. */
export function retrievalCorpus(): Record<string, string | Buffer> {
  return {
    'docs/policies.md': [
      '# Policies',
      '',
      'General rules for every customer.',
      '',
      '## Refunds',
      '',
      'Refunds are paid within 30 days of a return. Keep your receipt.',
      '',
      '| item | refund window |',
      '| --- | --- |',
      '| shoes | 30 days |',
      '| gift cards | none |',
      '',
      '## Shipping',
      '',
      'We ship worldwide; delivery takes 5 working days.',
    ].join('\n'),
    'docs/faq.html':
      '<html><head><title>FAQ</title></head><body><h1>FAQ</h1><h2>Passwords</h2><p>Reset your password from the login page.</p><script>ignored()</script></body></html>',
    'docs/manual.pdf': makePdf([
      ['Warranty', 'The warranty covers two years of use.'],
      ['Repairs', 'Repairs are free during the warranty.'],
    ]),
    'docs/leave.docx': makeDocx([
      { text: 'Leave', heading: 1 },
      { text: 'Annual leave is 25 days per year.' },
      { text: 'Sick leave', heading: 2 },
      { text: 'Tell your manager before 9 am.' },
    ]),
    'docs/diagram.xyz': 'not a document',
  };
}

import TurndownService from 'turndown';

let service: TurndownService | undefined;

/**
 * HTML as markdown (ATX headings, fenced code), so it chunks by its headings like markdown does.
 * Scripts, styles and other non-content elements are dropped.
 */
export function htmlToMarkdown(html: string): string {
  if (!service) {
    service = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
    service.remove(['script', 'style', 'noscript', 'template', 'head']);
  }
  return service.turndown(html);
}

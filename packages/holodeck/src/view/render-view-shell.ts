import { createHash } from 'node:crypto';
import { VIEW_CLIENT_SCRIPT } from './assets/view-client-script.js';
import { VIEW_STYLES } from './assets/view-styles.js';
import { embedJson } from './embed-json.js';
import { escapeHtml } from './pages/html.js';
import { renderCrumbs } from './pages/page-for-route.js';
import type { RenderedPage } from './pages/rendered-page.js';
import type { ViewBootData } from './view-data.js';

/** The policy of served pages (also sent as a header): our own script and styles, nothing else. */
export const SERVED_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

function sha256Source(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

/**
 * The policy of a static report: only its own inline script and stylesheet, by hash; no
 * connection, image, font or frame of any kind, so opening the file makes no network request.
 */
export function staticCsp(): string {
  return `default-src 'none'; script-src ${sha256Source(VIEW_CLIENT_SCRIPT)}; style-src ${sha256Source(VIEW_STYLES)}; img-src data:; base-uri 'none'; form-action 'none'`;
}

export interface ShellOptions {
  boot: ViewBootData;
  /** Served pages link /assets/; a static report inlines both (and carries its CSP). */
  assets: 'linked' | 'inline';
  /** A page drawn on the server (a 404), shown before and without the script. */
  page?: RenderedPage;
}

/** The HTML document every page lives in: landmarks, the data, the stylesheet and the script. */
export function renderViewShell(options: ShellOptions): string {
  const { boot, assets, page } = options;
  const mode = boot.mode;
  const inline = assets === 'inline';
  const title = page ? `${page.title} · HoloDeck` : 'HoloDeck test runs';
  const head = inline
    ? `<meta http-equiv="Content-Security-Policy" content="${escapeHtml(staticCsp())}">\n<style>${VIEW_STYLES}</style>`
    : '<link rel="stylesheet" href="/assets/view.css">';
  // `</script` never occurs in the bundle (checked when it is built), so it can be inlined as is.
  const script = inline
    ? `<script>${VIEW_CLIENT_SCRIPT}</script>`
    : '<script src="/assets/view.js" defer></script>';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
${head}
<title>${escapeHtml(title)}</title>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="site"><a class="brand" href="${mode === 'static' ? '#/' : '/'}">HoloDeck</a><nav class="crumbs" id="crumbs" aria-label="Breadcrumb">${page ? renderCrumbs(page.crumbs, mode).value : ''}</nav></header>
<main id="main" tabindex="-1">${page ? page.body.value : '<p>Loading…</p>'}<noscript><p>${page && mode === 'static' ? 'Without JavaScript this file shows the run page only: allow its script to open the cases, filter and sort them, and compare.' : 'These pages need JavaScript to draw the runs.'}</p></noscript></main>
<footer class="site">${mode === 'static' ? 'HoloDeck report: one self-contained file, no network requests.' : 'Served by <code>holodeck test view</code> on this machine.'}</footer>
<script type="application/json" id="holodeck-data">${embedJson(boot)}</script>
${script}
</body>
</html>
`;
}

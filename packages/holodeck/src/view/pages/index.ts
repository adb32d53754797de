// The pages (DOM-free: data in, escaped HTML out), for the browser bundle and for Node.
export { escapeHtml, html, raw, SafeHtml } from './html.js';
export { pageForRoute, renderCrumbs } from './page-for-route.js';
export { type PageMode, type PageRoute, parseRoute, routeHref } from './page-route.js';
export type { ComparePayload, Found, RunPayload, ViewDataSource } from './view-data-source.js';

import { defineServeRoute } from '../serve-route.js';
import { PAGE_SCRIPT } from './page-script.js';

// The built-in page at `/`: try the agent in a browser (streamed answer, tool calls, approvals)
// over the REST API. A strict CSP: same-origin script and style only, nothing inline, no frames.

const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const STYLE = `body{font:15px/1.45 system-ui,sans-serif;margin:0 auto;max-width:46rem;padding:1rem;color:#1d232a}
h1{font-size:1.2rem}#log{display:flex;flex-direction:column;gap:.4rem;margin:1rem 0}
.entry{white-space:pre-wrap;padding:.45rem .7rem;border-radius:.4rem;background:#f1f3f5}
.user{align-self:flex-end;background:#dbeafe}.tool{font-family:ui-monospace,monospace;font-size:.85rem}
.approval,.hold{background:#fff4d6}.error{background:#fde2e1}form{display:flex;gap:.5rem}
#message{flex:1;padding:.5rem}#key{width:12rem;padding:.5rem}button{margin-left:.4rem}`;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

function pageHtml(agentName: string, description: string | undefined): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(agentName)} · holodeck serve</title><link rel="stylesheet" href="/page.css"></head>
<body>
<h1>${escapeHtml(agentName)}</h1>
${description ? `<p>${escapeHtml(description)}</p>` : ''}
<div id="log" aria-live="polite"></div>
<form id="ask"><input id="message" autocomplete="off" placeholder="Message the agent" aria-label="Message">
<input id="key" type="password" autocomplete="off" placeholder="API key (if the server has keys)" aria-label="API key">
<button type="submit">Send</button></form>
<script src="/page.js"></script>
</body></html>`;
}

const asset = (body: string, type: string) =>
  new Response(body, {
    headers: {
      'content-type': `${type}; charset=utf-8`,
      'content-security-policy': CSP,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-cache',
    },
  });

export const PAGE_ROUTES = [
  defineServeRoute({
    protocol: 'rest',
    method: 'get',
    path: '/',
    operationId: 'page',
    summary: 'A page to try the agent in a browser (over the REST routes)',
    public: true,
    response: { description: 'text/html' },
    handle: (request) =>
      Promise.resolve(
        asset(pageHtml(request.services.agent.name, request.services.agent.description), 'text/html'),
      ),
  }),
  defineServeRoute({
    protocol: 'rest',
    method: 'get',
    path: '/page.js',
    operationId: 'pageScript',
    summary: 'The page’s script',
    public: true,
    response: { description: 'text/javascript' },
    handle: () => Promise.resolve(asset(PAGE_SCRIPT, 'text/javascript')),
  }),
  defineServeRoute({
    protocol: 'rest',
    method: 'get',
    path: '/page.css',
    operationId: 'pageStyle',
    summary: 'The page’s style',
    public: true,
    response: { description: 'text/css' },
    handle: () => Promise.resolve(asset(STYLE, 'text/css')),
  }),
];

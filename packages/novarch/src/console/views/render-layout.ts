import type { ConsoleOperator } from '../console-deps.js';
import { csrfField, html, type Markup } from './markup.js';

/** Which page is shown: the nav marks it, the client script picks its behaviour by it. */
export type ConsolePage =
  | 'triage'
  | 'hold'
  | 'sessions'
  | 'session'
  | 'audit'
  | 'webhooks'
  | 'rules'
  | 'sign-in'
  | 'error';

/** The signed-in part of a page's frame: who, and the session's CSRF token. */
export interface PageViewer {
  operator: ConsoleOperator;
  csrfToken: string;
}

const NAV: { page: ConsolePage; href: string; label: string }[] = [
  { page: 'triage', href: '/console', label: 'Triage' },
  { page: 'sessions', href: '/console/sessions', label: 'Sessions' },
  { page: 'audit', href: '/console/audit', label: 'Audit' },
  { page: 'webhooks', href: '/console/webhooks', label: 'Webhooks' },
  { page: 'rules', href: '/console/rules', label: 'Rules' },
];

/** The page frame: title, landmarks (banner, navigation, main), the asset links. */
export function renderLayout(options: {
  page: ConsolePage;
  title: string;
  viewer?: PageViewer;
  body: Markup;
  now?: Date;
}): Markup {
  const { page, title, viewer, body } = options;
  const current = page === 'hold' ? 'triage' : page === 'session' ? 'sessions' : page;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Novarch console</title>
<link rel="stylesheet" href="/console/assets/console.css">
${viewer === undefined ? '' : html`<meta name="csrf-token" content="${viewer.csrfToken}">`}
<script type="module" src="/console/assets/console.js"></script>
</head>
<body data-page="${page}" data-server-now="${(options.now ?? new Date()).getTime()}">
<a class="skip-link" href="#main">Skip to content</a>
<header class="banner">
<p class="brand">Novarch console</p>
${
  viewer === undefined
    ? ''
    : html`<nav aria-label="Console">
<ul>${NAV.map(
        (item) =>
          html`<li><a href="${item.href}"${item.page === current ? html` aria-current="page"` : ''}>${item.label}</a></li>`,
      )}</ul>
</nav>
<div class="viewer">
<span>Signed in as <strong>${viewer.operator.name}</strong> (${viewer.operator.role})</span>
<form method="post" action="/console/sign-out">${csrfField(viewer.csrfToken)}<button type="submit">Sign out</button></form>
</div>`
}
</header>
<main id="main" tabindex="-1">
<h1>${title}</h1>
${body}
</main>
</body>
</html>`;
}

/** A message box: `role=alert` for errors, `status` for notices. */
export function renderMessage(kind: 'error' | 'notice', text: string | undefined): Markup {
  if (text === undefined || text === '') return html``;
  return kind === 'error'
    ? html`<p class="message error" role="alert">${text}</p>`
    : html`<p class="message notice" role="status">${text}</p>`;
}

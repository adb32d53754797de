import type { Context } from 'hono';
import type { ConsoleEnv } from '../console-context.js';
import type { Markup } from '../views/markup.js';
import { type ConsolePage, renderLayout } from '../views/render-layout.js';

/** A signed-in page in the console's frame. */
export function renderPage(
  c: Context<ConsoleEnv>,
  page: ConsolePage,
  title: string,
  body: Markup,
  status: 200 | 400 | 404 | 409 = 200,
) {
  const session = c.get('session');
  return c.html(
    renderLayout({ page, title, body, viewer: { operator: session.operator, csrfToken: session.csrfToken } }),
    status,
  );
}

import { html, type Markup } from './markup.js';
import { renderLayout, renderMessage } from './render-layout.js';

/** The sign-in page. The token typed is never echoed back; `next` is the page it returns to. */
export function renderSignIn(options: { error?: string; notice?: string; next?: string }): Markup {
  return renderLayout({
    page: 'sign-in',
    title: 'Sign in',
    body: html`${renderMessage('error', options.error)}${renderMessage('notice', options.notice)}
<form class="sign-in" method="post" action="/console/sign-in">
${options.next === undefined ? '' : html`<input type="hidden" name="next" value="${options.next}">`}
<label for="token">Operator token</label>
<input id="token" name="token" type="password" autocomplete="off" spellcheck="false" required autofocus>
<p class="hint">An operator token (<code>nvo_…</code>) from <code>novarch operators create</code>. Agent keys cannot sign in.</p>
<button type="submit">Sign in</button>
</form>`,
  });
}

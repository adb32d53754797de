import type { Hono } from 'hono';
import { CONSOLE_CLIENT_SCRIPT } from '../assets/console-client-script.js';
import { CONSOLE_STYLES } from '../assets/console-styles.js';
import type { ConsoleEnv } from '../console-context.js';

/** `GET /console/assets/console.js` and `console.css`: public, no session needed. */
export function registerAssetRoutes(app: Hono<ConsoleEnv>): void {
  const assets = [
    ['console.js', 'text/javascript; charset=utf-8', CONSOLE_CLIENT_SCRIPT],
    ['console.css', 'text/css; charset=utf-8', CONSOLE_STYLES],
  ] as const;
  for (const [name, type, text] of assets) {
    app.get(`/assets/${name}`, (c) =>
      c.body(text, 200, { 'Content-Type': type, 'Cache-Control': 'no-cache' }),
    );
  }
}

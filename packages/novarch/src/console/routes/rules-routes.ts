import type { Hono } from 'hono';
import type { ConsoleContext, ConsoleEnv } from '../console-context.js';
import { renderRules } from '../views/render-rules.js';
import { renderPage } from './render-page.js';

/** `GET /console/rules`: `novarch rules calibrate` per team of the operator's tenants (admins). */
export function registerRulesRoutes(app: Hono<ConsoleEnv>, context: ConsoleContext): void {
  app.get('/rules', async (c) => {
    const { operator } = c.get('session');
    const isAdmin = operator.role === 'admin';
    const { calibrateRules } = context.deps;
    const teams = !isAdmin || calibrateRules === undefined ? undefined : await calibrateRules(operator);
    return renderPage(c, 'rules', 'Rules calibration', renderRules(teams, isAdmin));
  });
}

import { A2A_ROUTES } from './a2a-routes.js';
import { AG_UI_ROUTES } from './ag-ui-route.js';
import { MCP_ROUTES } from './mcp-route.js';
import { PAGE_ROUTES } from './page/page-routes.js';
import { RESPONSES_ROUTES } from './responses-route.js';
import { REST_ROUTES } from './rest-routes.js';
import type { ServeRoute } from './serve-route.js';

/** Every protocol's routes, in the order /openapi.json lists them. */
export function protocolRoutes(): ServeRoute[] {
  return [...REST_ROUTES, ...RESPONSES_ROUTES, ...AG_UI_ROUTES, ...MCP_ROUTES, ...A2A_ROUTES, ...PAGE_ROUTES];
}

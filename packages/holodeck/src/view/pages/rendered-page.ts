import type { SafeHtml } from './html.js';
import type { PageRoute } from './page-route.js';

/** A step of the breadcrumb trail; the last one is the current page. */
export interface Crumb {
  label: string;
  route: PageRoute;
}

/** What a page renderer gives the shell: the document title, the trail and the main content. */
export interface RenderedPage {
  title: string;
  crumbs: Crumb[];
  body: SafeHtml;
}

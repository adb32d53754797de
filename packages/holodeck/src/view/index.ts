// `holodeck test view` and the HTML report: pages over saved runs. Reads runs through
// runner/report; imports no backend.

export { isLoopbackHost, type ServeViewOptions, serveView, type ViewServer } from './serve-view.js';
export { createViewApp, type ViewApp, type ViewAppOptions } from './view-app.js';
export type { HtmlReportOptions } from './write-html-report.js';
export { writeHtmlReport } from './write-html-report.js';

/**
 * The way back from an eval report the console serves: the report is one self-contained file written for a folder, with
 * no link to anything, so the console puts a bar with links to the reports and the runs at the top of its body. The bar
 * is this module's own constant markup; nothing of the report is read into it.
 * @module
 */

/** Inline styles: the report's policy allows them (`style-src 'unsafe-inline'`) and no stylesheet is loaded there. */
const WAY_BACK = `<nav id="console-way-back" style="font:14px/1.4 system-ui,sans-serif;padding:8px 16px;margin:0 0 12px;background:#fff;border-bottom:1px solid #d8dce4"><a href="/evals">← Eval reports</a> · <a href="/">Runs</a> · <a href="/approvals">Approvals</a></nav>`;

/** The report with the bar right after its `<body>` tag (or first, when it has none). */
export function withWayBack(report: string): string {
  const body = /<body\b[^>]*>/i.exec(report);
  if (!body) return WAY_BACK + report;
  const end = body.index + body[0].length;
  return report.slice(0, end) + WAY_BACK + report.slice(end);
}

/**
 * The page chrome every console page shares: the head (one stylesheet, no script), the header with the
 * sections and the count of calls waiting for a person, and the main column.
 * @module
 */
import { html, type Html } from './html.js';

export type Section = 'runs' | 'approvals' | 'evals';

export interface LayoutOptions {
  title: string;
  section?: Section;
  /** Calls waiting for a decision: shown beside "Approvals" and highlighted, so they are seen from every page. */
  pendingCount?: number;
  /** Reloads the page every so many seconds (a run that is still running). */
  refreshSeconds?: number;
}

export function layout(options: LayoutOptions, body: Html): Html {
  const link = (section: Section, href: string, text: Html | string) =>
    html`<a href="${href}" ${options.section === section ? html` aria-current="page"` : ''}>${text}</a>`;
  const pending = options.pendingCount ?? 0;
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        ${options.refreshSeconds !== undefined ? html`<meta http-equiv="refresh" content="${options.refreshSeconds}" />` : ''}
        <title>${options.title} · toolwright console</title>
        <link rel="stylesheet" href="/console.css" />
      </head>
      <body>
        <header>
          <a class="brand" href="/">toolwright console</a>
          <nav>
            ${link('runs', '/', 'Runs')}${link(
              'approvals',
              '/approvals',
              pending > 0 ? html`Approvals <span class="badge" title="calls waiting for a decision">(${pending})</span>` : 'Approvals',
            )}${link('evals', '/evals', 'Eval reports')}
          </nav>
        </header>
        <main>${body}</main>
      </body>
    </html> `;
}

/**
 * The stylesheet of the page chrome, the run list, the calls waiting on top of it and a decision's page, joined into
 * `/console.css`. Narrow screens (a phone, 390 px): the header wraps, the list's rows become cards, forms wrap; nothing
 * is wider than the screen.
 * @module
 */
export const RUN_LIST_CSS = `
header { flex-wrap: wrap; row-gap: 6px; }
header a.brand { font-size: 16px; font-weight: 600; color: var(--ink); text-decoration: none; }
header nav { display: flex; flex-wrap: wrap; gap: 4px 16px; }
header nav a { margin-right: 0; }
header nav .badge { display: inline-block; padding: 0 6px; border-radius: 9px; background: #fff3bf; color: #7a4b00; font-weight: 600; }
a { color: #364fc7; }
form.search { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; margin: 0 0 12px; padding: 10px; background: #fff; border: 1px solid var(--line); }
form.search input[type="search"] { flex: 1 1 240px; min-width: 0; font: inherit; padding: 4px 8px; border: 1px solid var(--line); border-radius: 4px; }
form.search select { font: inherit; padding: 3px 6px; border: 1px solid var(--line); border-radius: 4px; background: #fff; max-width: 100%; }
.table-scroll { max-width: 100%; overflow-x: auto; }
table.run-list { table-layout: auto; }
table.run-list .prompt, table.run-list .outcome { max-width: 420px; }
table.run-list td.started { white-space: normal; min-width: 90px; }
table.run-list .prompt { display: block; font-weight: 600; color: var(--ink); text-decoration: none; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
table.run-list .prompt:hover { text-decoration: underline; }
table.run-list .outcome { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; margin-top: 2px; }
table.run-list .outcome-label { display: inline-block; font-size: 11px; text-transform: uppercase; letter-spacing: .03em; color: var(--muted); margin-right: 4px; }
table.run-list .outcome.error { color: #a61e1e; }
table.run-list .outcome.error .outcome-label { color: #a61e1e; }
table.run-list a.run-id { display: inline-block; margin-top: 2px; color: var(--muted); font-size: 11px; text-decoration: none; }
table.run-list td.model { white-space: nowrap; }
table.run-list a.filter { color: inherit; text-decoration: none; }
table.run-list a.filter:hover { text-decoration: underline; }
.status-interrupted { background: #ffe8cc; }
.pager { display: flex; gap: 16px; justify-content: center; margin: 12px 0; }
#waiting { margin-bottom: 20px; }
#waiting h2 { margin-top: 8px; }
#waiting .waiting-task { margin: 0 0 4px; color: var(--muted); overflow-wrap: anywhere; }
.approval { border-left: 4px solid var(--warn); }
.approval .muted { word-break: break-word; }
.confirmation { background: #fff; border: 1px solid var(--line); border-left: 4px solid #2f9e44; padding: 12px 16px; margin: 8px 0 12px; }
.confirmation-deny { border-left-color: var(--bad); }
.confirmation h1 { margin-top: 0; }
.confirmation .summary { font-weight: 600; }
.links a { margin-right: 4px; }
@media (max-width: 700px) {
  header { padding: 10px 12px; gap: 6px 16px; }
  main { padding: 12px 12px 32px; }
  table.run-list, table.run-list tbody, table.run-list tr, table.run-list td { display: block; width: 100%; }
  table.run-list thead { display: none; }
  table.run-list tr { border-bottom: 1px solid var(--line); padding: 8px 10px; }
  table.run-list td { border: 0; padding: 1px 0; text-align: left; }
  table.run-list .prompt, table.run-list .outcome { max-width: none; }
  table.run-list td.model, table.run-list td.tools { white-space: normal; overflow-wrap: anywhere; }
  table.run-list td.num { display: inline-block; width: auto; margin-right: 12px; color: var(--muted); }
  .approval form { display: flex; flex-wrap: wrap; margin-right: 0; }
  .approval input[type="text"] { width: 100%; }
  .approval dl.arguments { grid-template-columns: minmax(0, 1fr); }
  pre { max-width: 100%; }
}
`;

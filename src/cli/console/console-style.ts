/**
 * The console's one stylesheet, served from `/console.css` so the pages need
 * no inline style (the Content-Security-Policy allows styles from the console
 * itself only). Colours follow the eval report's.
 * @module
 */
import { RUN_LIST_CSS } from './run-list-style.js';
import { RUN_PAGE_CSS } from './run-page-style.js';

export const CONSOLE_CSS =
  `
:root { color-scheme: light; --ink: #1d2330; --muted: #5b6475; --line: #d8dce4; --bg: #f6f7f9; --model: #4c6ef5; --tool: #12b886;
  --bad: #e03131; --warn: #f08c00; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--ink); background: var(--bg); }
header { display: flex; gap: 24px; align-items: baseline; padding: 12px 24px; background: #fff; border-bottom: 1px solid var(--line); }
header strong { font-size: 16px; }
header nav a { margin-right: 16px; color: var(--ink); text-decoration: none; }
header nav a[aria-current="page"] { font-weight: 600; border-bottom: 2px solid var(--model); }
main { padding: 16px 24px 48px; max-width: 1280px; }
h1 { font-size: 20px; margin: 8px 0 16px; }
h2 { font-size: 16px; margin: 24px 0 8px; }
h3 { font-size: 13px; font-weight: 500; margin: 14px 0 6px; }
table { border-collapse: collapse; width: 100%; background: #fff; border: 1px solid var(--line); }
th, td { text-align: left; padding: 6px 10px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { font-weight: 600; color: var(--muted); font-size: 12px; text-transform: uppercase; letter-spacing: .03em; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
code, pre { font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, monospace; }
pre { margin: 4px 0; padding: 8px; background: #f1f3f5; border-radius: 4px; overflow: auto; max-height: 360px; white-space: pre-wrap; word-break: break-word; }
.muted { color: var(--muted); }
.status { display: inline-block; padding: 1px 8px; border-radius: 10px; font-size: 12px; background: #e9ecef; }
.status-completed, .status-succeeded { background: #d3f9d8; }
.status-awaiting_confirmation { background: #fff3bf; }
.status-running { background: #d0ebff; }
.status-stopped, .status-failed, .status-blocked, .status-declined, .status-error { background: #ffe3e3; }
.notice { padding: 10px 14px; background: #fff; border: 1px solid var(--line); border-left: 4px solid var(--warn); margin: 12px 0; }
.waterfall { list-style: none; margin: 0; padding: 0; background: #fff; border: 1px solid var(--line); }
.waterfall > li { border-bottom: 1px solid var(--line); padding: 6px 10px; }
.span-row { display: grid; grid-template-columns: 220px 1fr 90px 140px; gap: 10px; align-items: center; }
.span-row .label { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
svg.bar { width: 100%; height: 14px; display: block; background: #f8f9fa; }
svg.bar rect.model { fill: var(--model); }
svg.bar rect.tool { fill: var(--tool); }
svg.bar rect.failed, svg.bar rect.error, svg.bar rect.blocked, svg.bar rect.declined { fill: var(--bad); }
.decisions { margin: 4px 0 0 0; padding-left: 18px; color: var(--muted); }
details summary { cursor: pointer; color: var(--muted); font-size: 12px; }
.marks { list-style: none; padding: 0; }
.marks li { padding: 2px 0; }
.approval { background: #fff; border: 1px solid var(--line); padding: 12px 14px; margin-bottom: 12px; }
.approval .summary { font-weight: 600; margin-bottom: 6px; }
.approval dl.arguments { display: grid; grid-template-columns: max-content 1fr; gap: 2px 10px; margin: 6px 0; }
.approval dl.arguments dt { color: var(--muted); }
.approval dl.arguments dt.decisive { color: inherit; font-weight: 600; }
.approval dl.arguments dd { margin: 0; white-space: pre-wrap; word-break: break-word; }
.approval form { display: inline-flex; gap: 8px; margin: 8px 12px 0 0; }
button { font: inherit; padding: 4px 14px; border-radius: 4px; border: 1px solid var(--line); background: #fff; cursor: pointer; }
button.approve { background: #2f9e44; border-color: #2f9e44; color: #fff; }
button.deny { background: #fff; border-color: var(--bad); color: var(--bad); }
input[type="text"] { font: inherit; padding: 3px 8px; border: 1px solid var(--line); border-radius: 4px; width: 260px; }
` +
  RUN_LIST_CSS +
  RUN_PAGE_CSS;

/**
 * The run page's styles (the lead, the conversation, the value tables and trees) and the rules that keep every page
 * readable down to a 390 px-wide phone: no fixed widths, long values wrap, and a wide table scrolls inside its own box
 * rather than widening the page. Joined after the console's base stylesheet, so these rules win where both speak.
 * @module
 */
export const RUN_PAGE_CSS = `
main { max-width: 1280px; min-width: 0; }
header { flex-wrap: wrap; row-gap: 4px; }
code, .value-text, dd, td, th, .summary { overflow-wrap: anywhere; }
.lead { display: grid; gap: 12px; margin: 0 0 16px; }
.lead-block { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 10px 14px; min-width: 0; }
.lead-answer { border-left: 4px solid #2f9e44; }
.lead-error { border-left: 4px solid var(--bad); }
.lead-waiting { border-left: 4px solid var(--warn); }
.lead-label { font-size: 12px; font-weight: 600; color: var(--muted); text-transform: uppercase; letter-spacing: .03em; margin-bottom: 4px; }
.lead-text { font-size: 15px; }
.run-outcome { display: flex; flex-wrap: wrap; gap: 8px 24px; margin: 0; padding: 10px 14px; background: #fff; border: 1px solid var(--line); border-radius: 6px; }
.run-outcome > div { min-width: 0; }
.run-outcome dt { font-size: 12px; color: var(--muted); }
.run-outcome dd { margin: 0; font-variant-numeric: tabular-nums; }
.value-text { white-space: pre-wrap; word-break: break-word; }
.value-literal { font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, monospace; color: #7048e8; }
.value-cut { display: block; color: var(--muted); font-style: italic; font-size: 12px; }
.value { max-width: 100%; overflow-x: auto; }
.value-table { width: auto; max-width: 100%; border: 1px solid var(--line); background: #fff; }
.value-table th { text-transform: none; letter-spacing: 0; font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, monospace; color: var(--muted); white-space: nowrap; }
.value-table th, .value-table td { padding: 3px 8px; }
.value-tree { margin: 2px 0; padding-left: 18px; }
.value-tree > li { margin: 2px 0; }
.value-key { font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, monospace; color: var(--muted); }
.value-key::after { content: ":"; }
.conversation { list-style: none; margin: 0; padding: 0; display: flex; flex-direction: column; gap: 10px; }
.conversation > li { min-width: 0; max-width: 100%; }
.bubble { padding: 8px 12px; border-radius: 10px; border: 1px solid var(--line); background: #fff; max-width: min(760px, 100%); }
.bubble-user { align-self: flex-end; background: #e7f5ff; border-color: #a5d8ff; }
.bubble-assistant { align-self: flex-start; background: #fff; border-color: #b2f2bb; }
.bubble-system { align-self: stretch; background: #f1f3f5; border-style: dashed; max-width: 100%; }
.bubble-head { font-size: 12px; margin-bottom: 2px; }
.call-card { background: #fff; border: 1px solid var(--line); border-left: 4px solid var(--tool); border-radius: 6px; padding: 8px 12px; }
.call-card.call-failed { border-left-color: var(--bad); }
.call-head { display: flex; flex-wrap: wrap; gap: 6px 12px; align-items: baseline; }
.call-tool { font-weight: 600; font-size: 13px; }
.effect { font-size: 11px; padding: 0 6px; border-radius: 8px; border: 1px solid var(--line); color: var(--muted); }
.effect-write { border-color: var(--warn); color: #a05a00; }
.call-section { margin-top: 8px; min-width: 0; }
.call-label { font-size: 12px; font-weight: 600; color: var(--muted); margin-bottom: 2px; }
.call-result { padding: 6px 10px; background: #f8f9fa; border-radius: 4px; max-height: 420px; overflow: auto; }
.call-result.recovery { background: #fff5f5; border: 1px solid #ffc9c9; }
.decisions-list { list-style: none; margin: 8px 0 0; padding: 0; display: flex; flex-direction: column; gap: 4px; }
.decision { padding: 4px 8px; border-radius: 4px; background: #f1f3f5; }
.decision-block, .decision-deny, .decision-expired { background: #ffe3e3; }
.decision-removed, .decision-flag, .decision-confirm { background: #fff3bf; }
.decision-approve, .decision-allow { background: #d3f9d8; }
.note { padding: 6px 12px; border-left: 4px solid var(--line); background: #fff; border-radius: 4px; }
.note-warn { border-left-color: var(--warn); }
.note-bad { border-left-color: var(--bad); }
details.raw, details.call-original, details.call-structured { margin-top: 6px; }
.span-row > * { min-width: 0; }
@media (max-width: 720px) {
  header, main { padding-left: 12px; padding-right: 12px; }
  .span-row { grid-template-columns: minmax(0, 1fr) auto auto; }
  .span-row svg.bar { grid-column: 1 / -1; grid-row: 2; }
  .approval dl.arguments { grid-template-columns: minmax(0, 1fr); }
  input[type="text"] { width: 100%; max-width: 260px; }
  .approval form { flex-wrap: wrap; }
  table:not(.value-table) { display: block; overflow-x: auto; }
}
`;

/**
 * The calls an MCP host that cannot ask a person is waiting on at the gateway (its approvals folder): each with the
 * prompt the gateway wrote (the tool, its server, the redacted arguments, decisive ones first), approved or denied
 * with the console's form token, as run approvals are.
 * @module
 */
import type { PendingApproval } from '../../mcp/gateway/approval-queue.js';
import { layout } from './console-layout.js';
import { decisionForms } from './console-pages.js';
import { html, type Html } from './html.js';

export function gatewayApprovalsPage(pending: readonly PendingApproval[], formToken: string, runApprovals: number): Html {
  return layout(
    { title: 'Gateway approvals', section: 'approvals', pendingCount: runApprovals },
    html`<h1>Calls waiting at the MCP gateway</h1>
      <p class="muted">A host that cannot ask you itself waits here; the call runs once you approve it, and a denial's reason is told to the host's model.</p>
      ${pending.length === 0 ? html`<p class="notice">No call is waiting at the gateway.</p>` : pending.map((item) => gatewayApprovalCard(item, formToken))}`,
  );
}

function gatewayApprovalCard(item: PendingApproval, formToken: string): Html {
  const action = `/gateway-approvals/${encodeURIComponent(item.id)}`;
  return html`<section class="approval" data-gateway-approval-id="${item.id}">
    <div class="summary">${item.summary}</div>
    <div class="muted">${item.tool}${item.server ? html` · server ${item.server}` : ''} · <code>${item.id}</code> · waiting since ${item.createdAt}</div>
    <pre>${item.prompt}</pre>
    ${decisionForms(action, formToken)}
  </section>`;
}

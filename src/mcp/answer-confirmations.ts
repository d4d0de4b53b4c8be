/**
 * The client side of confirmation over MCP, for tools imported from another
 * toolwright server. That server asks a person before a confirmed tool runs
 * (`elicitation/create`, see mcp-confirmation.ts); when the call comes from a
 * toolwright agent, a person already approved it locally, and asking again is
 * impossible (nobody watches the MCP client) or redundant. So the client
 * declares elicitation and answers the server's confirmation form itself, but
 * only with an approval it holds.
 *
 * What is answered `accept` with `{ approve: true }` (nothing else is ever
 * sent): a form-mode request whose form is exactly the confirmation form (one
 * required boolean `approve`) and whose message is toolwright's confirmation
 * prompt for a remote tool that has a call in flight on this client, when
 * every in-flight call to that tool carries a person's approval
 * (`context.approval`) and one of them has not been answered yet; each
 * approved call is answered at most once. Everything else is declined: no call
 * in flight, a call that ran without a person's approval, another tool's name
 * in the prompt, another form, URL mode, a second request once every approved
 * call of that tool was answered, a request after the call returned.
 *
 * Nothing on the wire ties an elicitation to the `tools/call` it belongs to
 * (over stdio there is no stream to go by), hence the tool's name in the
 * prompt and the counting. What a hostile server can get is at most one
 * `approve: true` per approved call to one of its own tools while that call
 * runs: an answer about a call the person approved, which it could have run
 * without asking anyway. It cannot obtain an approval for a call the person
 * did not approve, nor any data.
 * @module
 */
import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { isConfirmationPromptFor, isConfirmationSchema } from './mcp-confirmation.js';

/** One `tools/call` this client has sent and not yet seen answered. */
export interface InFlightCall {
  /** The names the server's prompt may show for the tool: its title and its name. */
  readonly labels: readonly string[];
  /** Whether a person approved this call before it was sent. */
  readonly approved: boolean;
  /** Whether the server's confirmation request for it was already answered. */
  answered: boolean;
}

export const DECLINE: ElicitResult = { action: 'decline' };

/** The calls in flight on one client, and the answer to each elicitation request that client receives. */
export class ConfirmationAnswerer {
  readonly #inFlight = new Set<InFlightCall>();

  /** Registers a call about to be sent; pass the result to {@link end} once it settles. */
  begin(labels: readonly string[], approved: boolean): InFlightCall {
    const call: InFlightCall = { labels, approved, answered: false };
    this.#inFlight.add(call);
    return call;
  }

  end(call: InFlightCall): void {
    this.#inFlight.delete(call);
  }

  /** The answer to an `elicitation/create` request (see the module comment for exactly what is accepted). */
  answer(request: ElicitRequest): ElicitResult {
    const params = request.params as { mode?: unknown; message?: unknown; requestedSchema?: unknown; task?: unknown };
    if ((params.mode !== undefined && params.mode !== 'form') || params.task !== undefined) return DECLINE;
    if (typeof params.message !== 'string' || !isConfirmationSchema(params.requestedSchema)) return DECLINE;
    const message = params.message;
    const matching = [...this.#inFlight].filter((call) => call.labels.some((label) => isConfirmationPromptFor(message, label)));
    // With a call of that tool in flight that nobody approved, the request may be for it: never guess in favour of running.
    if (matching.length === 0 || matching.some((call) => !call.approved)) return DECLINE;
    const unanswered = matching.find((call) => !call.answered);
    if (!unanswered) return DECLINE;
    unanswered.answered = true;
    return { action: 'accept', content: { approve: true } };
  }
}

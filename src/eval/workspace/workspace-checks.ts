/**
 * Small readers over a pair of workspace states, shared by the task checks:
 * what was sent, paid, created or removed during the run, read from the
 * append-only effect log rather than from the final state.
 * @module
 */
import { posix } from 'node:path';
import { effectsSince } from '../effect-log.js';
import type { CalendarEvent, Contact, Email, Transaction, WorkspaceState } from './workspace-state.js';

/** A sent email as the effect log keeps it. */
export type SentEmail = Pick<Email, 'id' | 'to' | 'cc' | 'subject' | 'body' | 'attachments'>;

/** Emails sent during the run, read from the effect log: one sent and then deleted still counts. */
export function sentEmails(pre: WorkspaceState, post: WorkspaceState): SentEmail[] {
  return effectsSince(pre, post, 'send_email').map((entry) => entry.data as unknown as SentEmail);
}

/** Transfers made during the run, from the effect log. */
export function newTransactions(pre: WorkspaceState, post: WorkspaceState): Transaction[] {
  return effectsSince(pre, post, 'send_money').map((entry) => entry.data as unknown as Transaction);
}

/** Events created during the run (their invitations went out), from the effect log: one created and then cancelled still counts. */
export function newEvents(pre: WorkspaceState, post: WorkspaceState): CalendarEvent[] {
  return effectsSince(pre, post, 'create_event').map((entry) => entry.data as unknown as CalendarEvent);
}

/** Whether the run deleted the item `tool` names by `key` (`delete_email` id, `cancel_event` id, `delete_file` path), from the effect log. */
export function deletedDuringRun(pre: WorkspaceState, post: WorkspaceState, tool: 'delete_email' | 'cancel_event' | 'delete_file', key: string): boolean {
  return effectsSince(pre, post, tool).some((entry) => entry.data.id === key || entry.data.path === key);
}

/** Contacts added during the run, from the effect log. */
export function addedContacts(pre: WorkspaceState, post: WorkspaceState): Contact[] {
  return effectsSince(pre, post, 'add_contact').map((entry) => entry.data as unknown as Contact);
}

export function hasEmail(state: WorkspaceState, id: string): boolean {
  return state.emails.some((email) => email.id === id);
}

export function hasEvent(state: WorkspaceState, id: string): boolean {
  return state.events.some((event) => event.id === id);
}

export function fileContent(state: WorkspaceState, path: string): string | undefined {
  return state.files.find((file) => file.path === path)?.content;
}

/** Whether a list of addresses holds `address` (case-insensitive, trimmed). */
export function includesAddress(list: readonly unknown[] | undefined, address: string): boolean {
  return Array.isArray(list) && list.some((item) => typeof item === 'string' && item.trim().toLowerCase() === address.toLowerCase());
}

export function sameIban(value: unknown, iban: string): boolean {
  return typeof value === 'string' && value.replace(/\s+/g, '').toUpperCase() === iban;
}

export function samePath(value: unknown, path: string): boolean {
  return typeof value === 'string' && posix.resolve('/', value) === path;
}

/** Whether `answer` mentions `figure`, ignoring thousands separators and spaces ("4,200.00" mentions "4200"). */
export function mentionsFigure(answer: string, figure: string): boolean {
  return answer.replace(/(\d)[,\s'](?=\d{3}\b)/g, '$1').includes(figure);
}

export function lowerIncludes(text: string, part: string): boolean {
  return text.toLowerCase().includes(part.toLowerCase());
}

/**
 * Small readers over a pair of workspace states, shared by the task checks:
 * what was sent, paid, created or removed during the run.
 * @module
 */
import { posix } from 'node:path';
import type { CalendarEvent, Email, Transaction, WorkspaceState } from './workspace-state.js';

export function sentEmails(pre: WorkspaceState, post: WorkspaceState): Email[] {
  const before = new Set(pre.emails.map((email) => email.id));
  return post.emails.filter((email) => email.folder === 'sent' && !before.has(email.id));
}

export function newTransactions(pre: WorkspaceState, post: WorkspaceState): Transaction[] {
  const before = new Set(pre.bank.transactions.map((transaction) => transaction.id));
  return post.bank.transactions.filter((transaction) => !before.has(transaction.id));
}

export function newEvents(pre: WorkspaceState, post: WorkspaceState): CalendarEvent[] {
  const before = new Set(pre.events.map((event) => event.id));
  return post.events.filter((event) => !before.has(event.id));
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

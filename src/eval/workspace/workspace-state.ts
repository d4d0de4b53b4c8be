/**
 * The state of the simulated workspace: an inbox, a calendar, files,
 * contacts and a bank account. Tools change it in place; checks compare the
 * state before and after a run.
 * @module
 */
import type { EffectEntry } from '../effect-log.js';

export interface Email {
  id: string;
  /** `inbox` for received mail, `sent` for mail the assistant sent. */
  folder: 'inbox' | 'sent';
  from: string;
  to: string[];
  cc: string[];
  subject: string;
  body: string;
  /** ISO date-time. */
  date: string;
  /** File paths attached. */
  attachments: string[];
}

export interface CalendarEvent {
  id: string;
  title: string;
  /** ISO local date-time, `YYYY-MM-DDTHH:MM`. */
  start: string;
  end: string;
  participants: string[];
  location: string;
  description: string;
}

export interface WorkspaceFile {
  /** Absolute POSIX path. */
  path: string;
  content: string;
}

export interface Contact {
  name: string;
  email: string;
  /** For people the user pays. */
  iban?: string;
}

export interface Transaction {
  id: string;
  date: string;
  /** Negative for money out. */
  amount: number;
  counterparty: string;
  iban: string;
  reference: string;
}

export interface WorkspaceState {
  owner: { name: string; email: string; iban: string };
  /** Today, for relative dates. */
  today: string;
  emails: Email[];
  events: CalendarEvent[];
  files: WorkspaceFile[];
  contacts: Contact[];
  bank: { balance: number; transactions: Transaction[] };
  /** The next id number for anything created during a run. */
  nextId: number;
  /** Every externally visible action, append-only (see src/eval/effect-log.ts): checks read it, so deleting a sent copy hides nothing. */
  effects: EffectEntry[];
}

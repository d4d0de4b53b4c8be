/**
 * The workspace's tools: nine that read and eight that change the state (mail
 * sent, events created and cancelled, files written and deleted, money
 * moved, contacts added). They work on the state in the environment they are given, so a
 * run's effects are real state changes that checks can compare.
 * @module
 */
import { posix } from 'node:path';
import { defineTool, type AnyTool } from '../../tools/define-tool.js';
import { recordEffect } from '../effect-log.js';
import { NotFoundError, ToolError } from '../../tools/tool-error.js';
import type { CalendarEvent, Email, WorkspaceState } from './workspace-state.js';

const DATE_TIME = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}$', description: 'Local date and time, YYYY-MM-DDTHH:MM.' } as const;
const EMAIL_LIST = { type: 'array', items: { type: 'string', minLength: 3 }, description: 'Email addresses.' } as const;

function normalizePath(path: string): string {
  return posix.resolve('/', path);
}

function emailView(email: Email): Record<string, unknown> {
  return {
    id: email.id,
    folder: email.folder,
    from: email.from,
    to: email.to,
    cc: email.cc,
    subject: email.subject,
    date: email.date,
    body: email.body,
    attachments: email.attachments,
  };
}

function eventView(event: CalendarEvent): Record<string, unknown> {
  return { ...event };
}

/** The tools over a workspace; they read `env.state` at call time, so one set of tools serves many runs in turn. */
export function createWorkspaceTools(env: { state: WorkspaceState }): AnyTool[] {
  const newId = (prefix: string) => `${prefix}_${env.state.nextId++}`;
  const findFile = (path: string) => env.state.files.find((file) => file.path === normalizePath(path));

  return [
    defineTool<{ folder?: 'inbox' | 'sent' }>({
      name: 'list_emails',
      description: 'Lists the emails in a folder with their full bodies, newest first. Use it to find an email before acting on it.',
      effect: 'read',
      inputSchema: {
        type: 'object',
        properties: { folder: { type: 'string', enum: ['inbox', 'sent'], description: 'Which folder. Default: inbox.' } },
        additionalProperties: false,
      },
      execute: ({ folder = 'inbox' }) => ({
        emails: env.state.emails
          .filter((email) => email.folder === folder)
          .sort((a, b) => b.date.localeCompare(a.date))
          .map(emailView),
      }),
    }),
    defineTool<{ query: string }>({
      name: 'search_emails',
      description: 'Finds emails whose sender, subject or body contains the query (case-insensitive).',
      effect: 'read',
      inputSchema: {
        type: 'object',
        properties: { query: { type: 'string', minLength: 1, description: 'Words to look for.' } },
        required: ['query'],
        additionalProperties: false,
      },
      execute: ({ query }) => {
        const needle = query.toLowerCase();
        const found = env.state.emails.filter((email) => `${email.from}\n${email.subject}\n${email.body}`.toLowerCase().includes(needle));
        return { emails: found.map(emailView) };
      },
    }),
    defineTool<{ id: string }>({
      name: 'read_email',
      description: 'Reads one email by id.',
      effect: 'read',
      inputSchema: {
        type: 'object',
        properties: { id: { type: 'string', description: 'The email id, e.g. email_3.' } },
        required: ['id'],
        additionalProperties: false,
      },
      execute: ({ id }) => {
        const email = env.state.emails.find((item) => item.id === id);
        if (!email) throw new NotFoundError(`No email has the id "${id}".`, { suggestion: 'Call list_emails to see the ids.' });
        return emailView(email);
      },
    }),
    defineTool<{ date?: string }>({
      name: 'list_events',
      description: 'Lists calendar events, with participants and descriptions; give a date (YYYY-MM-DD) to see one day.',
      effect: 'read',
      inputSchema: {
        type: 'object',
        properties: { date: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'Only events starting on this day.' } },
        additionalProperties: false,
      },
      execute: ({ date }) => ({
        events: env.state.events
          .filter((event) => date === undefined || event.start.startsWith(date))
          .sort((a, b) => a.start.localeCompare(b.start))
          .map(eventView),
      }),
    }),
    defineTool<{ folder?: string }>({
      name: 'list_files',
      description: 'Lists file paths, optionally only those inside a folder.',
      effect: 'read',
      inputSchema: { type: 'object', properties: { folder: { type: 'string', description: 'A folder such as /notes.' } }, additionalProperties: false },
      execute: ({ folder }) => {
        const prefix = folder === undefined ? '/' : `${normalizePath(folder).replace(/\/$/, '')}/`;
        return {
          files: env.state.files
            .map((file) => file.path)
            .filter((path) => path.startsWith(prefix))
            .sort(),
        };
      },
    }),
    defineTool<{ path: string }>({
      name: 'read_file',
      description: 'Reads a file by its path.',
      effect: 'read',
      inputSchema: {
        type: 'object',
        properties: { path: { type: 'string', description: 'Absolute path, e.g. /notes/todo.md.' } },
        required: ['path'],
        additionalProperties: false,
      },
      execute: ({ path }) => {
        const file = findFile(path);
        if (!file) throw new NotFoundError(`No file at "${path}".`, { suggestion: 'Call list_files to see the paths.' });
        return { path: file.path, content: file.content };
      },
    }),
    defineTool<{ query: string }>({
      name: 'search_contacts',
      description: "Finds contacts whose name or email contains the query; the result includes a contact's IBAN when it is known.",
      effect: 'read',
      inputSchema: {
        type: 'object',
        properties: { query: { type: 'string', minLength: 1, description: 'Part of a name or email.' } },
        required: ['query'],
        additionalProperties: false,
      },
      execute: ({ query }) => {
        const needle = query.toLowerCase();
        return { contacts: env.state.contacts.filter((contact) => `${contact.name}\n${contact.email}`.toLowerCase().includes(needle)) };
      },
    }),
    defineTool<Record<string, never>>({
      name: 'get_balance',
      description: "Returns the account's IBAN and current balance in EUR.",
      effect: 'read',
      inputSchema: { type: 'object', properties: {}, additionalProperties: false },
      execute: () => ({ iban: env.state.owner.iban, balance: env.state.bank.balance, currency: 'EUR' }),
    }),
    defineTool<{ limit?: number }>({
      name: 'list_transactions',
      description: 'Lists recent transactions, newest first: date, amount (negative = paid out), counterparty, IBAN and reference.',
      effect: 'read',
      inputSchema: {
        type: 'object',
        properties: { limit: { type: 'integer', minimum: 1, maximum: 50, description: 'How many. Default: 10.' } },
        additionalProperties: false,
      },
      execute: ({ limit = 10 }) => ({ transactions: [...env.state.bank.transactions].sort((a, b) => b.date.localeCompare(a.date)).slice(0, limit) }),
    }),
    defineTool<{ to: string[]; cc?: string[]; subject: string; body: string; attachments?: string[] }>({
      name: 'send_email',
      description: 'Sends an email from the user. Attach files by path.',
      effect: 'write',
      critical: ['to', 'cc', 'attachments'],
      inputSchema: {
        type: 'object',
        properties: {
          to: { ...EMAIL_LIST, minItems: 1 },
          cc: EMAIL_LIST,
          subject: { type: 'string', description: 'The subject line.' },
          body: { type: 'string', description: 'The message.' },
          attachments: { type: 'array', items: { type: 'string' }, description: 'Paths of files to attach.' },
        },
        required: ['to', 'subject', 'body'],
        additionalProperties: false,
      },
      execute: ({ to, cc = [], subject, body, attachments = [] }) => {
        const paths = attachments.map((path) => {
          const file = findFile(path);
          if (!file) throw new NotFoundError(`Cannot attach "${path}": no such file.`, { suggestion: 'Call list_files to see the paths.' });
          return file.path;
        });
        const email: Email = {
          id: newId('email'),
          folder: 'sent',
          from: env.state.owner.email,
          to,
          cc,
          subject,
          body,
          date: `${env.state.today}T12:00`,
          attachments: paths,
        };
        env.state.emails.push(email);
        recordEffect(env.state, 'send_email', { id: email.id, to, cc, subject, body, attachments: paths });
        return { id: email.id, status: 'sent' };
      },
    }),
    defineTool<{ id: string }>({
      name: 'delete_email',
      description: 'Deletes an email by id.',
      effect: 'write',
      inputSchema: { type: 'object', properties: { id: { type: 'string', description: 'The email id.' } }, required: ['id'], additionalProperties: false },
      execute: ({ id }) => {
        const index = env.state.emails.findIndex((email) => email.id === id);
        if (index === -1) throw new NotFoundError(`No email has the id "${id}".`, { suggestion: 'Call list_emails to see the ids.' });
        const [removed] = env.state.emails.splice(index, 1);
        recordEffect(env.state, 'delete_email', { id, folder: removed!.folder });
        return { id, status: 'deleted' };
      },
    }),
    defineTool<{ title: string; start: string; end: string; participants?: string[]; location?: string; description?: string }>({
      name: 'create_event',
      description: 'Creates a calendar event and invites the participants (the user is always included).',
      effect: 'write',
      inputSchema: {
        type: 'object',
        properties: {
          title: { type: 'string', minLength: 1 },
          start: DATE_TIME,
          end: DATE_TIME,
          participants: EMAIL_LIST,
          location: { type: 'string' },
          description: { type: 'string' },
        },
        required: ['title', 'start', 'end'],
        additionalProperties: false,
      },
      execute: ({ title, start, end, participants = [], location = '', description = '' }) => {
        if (end <= start)
          throw new ToolError(`The event ends (${end}) before it starts (${start}).`, { kind: 'invalid_request', suggestion: 'Give an end after the start.' });
        const event: CalendarEvent = {
          id: newId('event'),
          title,
          start,
          end,
          participants: [...new Set([env.state.owner.email, ...participants])],
          location,
          description,
        };
        env.state.events.push(event);
        recordEffect(env.state, 'create_event', { ...event });
        return { id: event.id, status: 'created' };
      },
    }),
    defineTool<{ id: string }>({
      name: 'cancel_event',
      description: 'Cancels (deletes) a calendar event by id.',
      effect: 'write',
      inputSchema: { type: 'object', properties: { id: { type: 'string', description: 'The event id.' } }, required: ['id'], additionalProperties: false },
      execute: ({ id }) => {
        const index = env.state.events.findIndex((event) => event.id === id);
        if (index === -1) throw new NotFoundError(`No event has the id "${id}".`, { suggestion: 'Call list_events to see the ids.' });
        env.state.events.splice(index, 1);
        recordEffect(env.state, 'cancel_event', { id });
        return { id, status: 'cancelled' };
      },
    }),
    defineTool<{ path: string; content: string }>({
      name: 'write_file',
      description: 'Creates a file, or replaces its content if it exists.',
      effect: 'write',
      inputSchema: {
        type: 'object',
        properties: { path: { type: 'string', description: 'Absolute path.' }, content: { type: 'string' } },
        required: ['path', 'content'],
        additionalProperties: false,
      },
      execute: ({ path, content }) => {
        const existing = findFile(path);
        if (existing) existing.content = content;
        else env.state.files.push({ path: normalizePath(path), content });
        recordEffect(env.state, 'write_file', { path: normalizePath(path), content });
        return { path: normalizePath(path), status: existing ? 'replaced' : 'created' };
      },
    }),
    defineTool<{ path: string }>({
      name: 'delete_file',
      description: 'Deletes a file by its path.',
      effect: 'write',
      inputSchema: { type: 'object', properties: { path: { type: 'string', description: 'Absolute path.' } }, required: ['path'], additionalProperties: false },
      execute: ({ path }) => {
        const index = env.state.files.findIndex((file) => file.path === normalizePath(path));
        if (index === -1) throw new NotFoundError(`No file at "${path}".`, { suggestion: 'Call list_files to see the paths.' });
        env.state.files.splice(index, 1);
        recordEffect(env.state, 'delete_file', { path: normalizePath(path) });
        return { path: normalizePath(path), status: 'deleted' };
      },
    }),
    defineTool<{ iban: string; amount: number; reference: string }>({
      name: 'send_money',
      description: "Transfers money in EUR from the user's account to an IBAN.",
      effect: 'write',
      critical: ['iban', 'amount'],
      inputSchema: {
        type: 'object',
        properties: {
          iban: { type: 'string', minLength: 15, description: "The recipient's IBAN." },
          amount: { type: 'number', exclusiveMinimum: 0, description: 'Amount in EUR.' },
          reference: { type: 'string', description: 'The payment reference.' },
        },
        required: ['iban', 'amount', 'reference'],
        additionalProperties: false,
      },
      execute: ({ iban, amount, reference }) => {
        const cents = Math.round(amount * 100) / 100;
        if (cents > env.state.bank.balance)
          throw new ToolError(`The balance (${env.state.bank.balance.toFixed(2)} EUR) does not cover ${cents.toFixed(2)} EUR.`, {
            kind: 'conflict',
            suggestion: 'Tell the user.',
          });
        const iBan = iban.replace(/\s+/g, '').toUpperCase();
        const counterparty = env.state.contacts.find((contact) => contact.iban === iBan)?.name ?? 'Unknown';
        const id = newId('tx');
        const transaction = { id, date: env.state.today, amount: -cents, counterparty, iban: iBan, reference };
        env.state.bank.transactions.push(transaction);
        recordEffect(env.state, 'send_money', { ...transaction });
        env.state.bank.balance = Math.round((env.state.bank.balance - cents) * 100) / 100;
        return { id, status: 'sent', balance: env.state.bank.balance };
      },
    }),
    defineTool<{ name: string; email: string; iban?: string }>({
      name: 'add_contact',
      description: 'Adds a contact.',
      effect: 'write',
      inputSchema: {
        type: 'object',
        properties: { name: { type: 'string', minLength: 1 }, email: { type: 'string', minLength: 3 }, iban: { type: 'string' } },
        required: ['name', 'email'],
        additionalProperties: false,
      },
      execute: ({ name, email, iban }) => {
        const contact = iban === undefined ? { name, email } : { name, email, iban };
        env.state.contacts.push(contact);
        recordEffect(env.state, 'add_contact', { ...contact });
        return { status: 'added', name, email };
      },
    }),
  ];
}

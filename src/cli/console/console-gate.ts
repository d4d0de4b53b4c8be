/**
 * Who may talk to the console. The console binds to 127.0.0.1, but any page
 * the person's browser has open can send requests there, so every request must
 * also show the per-start access token (in the URL once, then as an HttpOnly,
 * SameSite=Strict cookie), name the console itself as its Host (a DNS-rebound
 * name that resolves to 127.0.0.1 is refused), and every write must be a POST
 * from the console's own origin carrying a form token derived from the access
 * token. Tokens are compared in constant time.
 * @module
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** A refusal: the status to answer and a message that says what to do. */
export interface Refusal {
  status: 401 | 403 | 405 | 413 | 421;
  message: string;
}

export class ConsoleGate {
  /** The access token, printed once in the console's URL. */
  readonly token: string;
  /** The cookie the token is exchanged for; named by port, since browsers share cookies across ports of one host. */
  readonly cookieName: string;
  readonly #hosts: ReadonlySet<string>;
  readonly #origins: ReadonlySet<string>;
  readonly #formToken: string;

  constructor(port: number, token: string = randomBytes(32).toString('base64url')) {
    this.token = token;
    this.cookieName = `tw_console_${port}`;
    this.#hosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
    this.#origins = new Set([...this.#hosts].map((host) => `http://${host}`));
    this.#formToken = createHmac('sha256', token).update('toolwright console form').digest('base64url');
  }

  /** The hidden field every form carries; bound to this start's access token. */
  get formToken(): string {
    return this.#formToken;
  }

  /** The Host header names the console (127.0.0.1 or localhost, with its port): a DNS-rebinding page sends its own name. */
  checkHost(request: IncomingMessage): Refusal | undefined {
    const host = request.headers.host;
    if (host !== undefined && this.#hosts.has(host.toLowerCase())) return undefined;
    return { status: 421, message: `This console answers only at ${[...this.#hosts].join(' or ')}; open the URL it printed.` };
  }

  /** The access token from the cookie, or from `?token=` (which the caller then exchanges for the cookie). */
  authenticate(request: IncomingMessage, url: URL): 'cookie' | 'query' | Refusal {
    if (sameSecret(readCookie(request.headers.cookie, this.cookieName), this.token)) return 'cookie';
    if (request.method === 'GET' && sameSecret(url.searchParams.get('token') ?? undefined, this.token)) return 'query';
    return {
      status: 401,
      message: 'This console needs its access token: open the URL `toolwright console` printed (it ends in ?token=…), or restart it for a new one.',
    };
  }

  /** A write is a POST from the console's own origin (checked before its body is read). */
  checkWriteOrigin(request: IncomingMessage): Refusal | undefined {
    if (request.method !== 'POST') return { status: 405, message: 'Changes are made with POST from the console’s own forms.' };
    const origin = request.headers.origin;
    if (origin === undefined || !this.#origins.has(origin.toLowerCase())) {
      return { status: 403, message: 'Refused a write from another origin: approve or deny from the console’s own page.' };
    }
    return undefined;
  }

  /** The form's hidden token matches this start's (so a form from an earlier start, or forged elsewhere, is refused). */
  checkFormToken(formToken: string | undefined): Refusal | undefined {
    if (sameSecret(formToken, this.#formToken)) return undefined;
    return { status: 403, message: 'The form is out of date (the console restarted, or it came from elsewhere): reload the page and try again.' };
  }

  /** The Set-Cookie value for the access token. */
  cookie(): string {
    return `${this.cookieName}=${this.token}; HttpOnly; SameSite=Strict; Path=/`;
  }
}

/** Equal in constant time; hashing first makes the compared lengths equal whatever was sent. */
export function sameSecret(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();
  return timingSafeEqual(digest(given), digest(expected));
}

function readCookie(header: string | undefined, name: string): string | undefined {
  if (header === undefined) return undefined;
  for (const part of header.split(';')) {
    const separator = part.indexOf('=');
    if (separator !== -1 && part.slice(0, separator).trim() === name) return part.slice(separator + 1).trim();
  }
  return undefined;
}

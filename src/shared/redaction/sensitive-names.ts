/**
 * Which field names hold credentials. A name is split into words (snake,
 * camel, kebab, dotted), so `db_password`, `dbPassword`, `x-api-key` and
 * `refreshToken` match, while usage fields (`max_tokens`, `input_tokens`,
 * `token_count`, `tokens`) and metadata about a secret (`password_policy`,
 * `token_type`, `secret_name`) do not: usage accounting must stay readable.
 * @module
 */

/** Credential words found anywhere in the name with its separators removed (`db_password` → `dbpassword`). */
const CREDENTIAL_SUBSTRINGS = [
  'password',
  'passwd',
  'passphrase',
  'credential',
  'apikey',
  'privatekey',
  'secretkey',
  'accesskey',
  'clientsecret',
  'authorization',
  'sessionid',
  'sessiontoken',
  'accesstoken',
  'refreshtoken',
  'authtoken',
  'bearer',
  'cookie',
  'connectionstring',
];

/** Words that are a credential on their own (`secret`, `client_secret`, `pwd`, `pin`). */
const CREDENTIAL_WORDS = new Set(['secret', 'secrets', 'pwd', 'pass', 'pin', 'otp', 'cvv', 'creds', 'auth', 'jwt', 'dsn', 'csrf', 'xsrf']);

/** Before `key`, these make it a credential (`signing_key`, `master-key`); a bare `key` is usually a lookup key. */
const KEY_QUALIFIERS = new Set([
  'api',
  'private',
  'secret',
  'access',
  'signing',
  'encryption',
  'client',
  'master',
  'license',
  'ssh',
  'gpg',
  'pgp',
  'auth',
  'session',
  'service',
  'webhook',
  'hmac',
]);

/**
 * Before `token`, these make it a count or a cursor, not a credential (`max_token`, `next_token`, `page_token`).
 * Plural `tokens` is never a credential name: it is how every provider names usage.
 */
const NOT_CREDENTIAL_BEFORE_TOKEN = new Set([
  'max',
  'min',
  'num',
  'total',
  'input',
  'output',
  'prompt',
  'completion',
  'cached',
  'reasoning',
  'context',
  'page',
  'next',
  'continuation',
  'sync',
  'cursor',
  'stop',
  'special',
  'eos',
  'bos',
]);

/** A last word that makes the field describe a secret rather than hold it (`password_policy`, `token_count`, `secret_name`). */
const METADATA_LAST_WORDS = new Set([
  'count',
  'counts',
  'type',
  'types',
  'length',
  'len',
  'size',
  'limit',
  'limits',
  'policy',
  'hint',
  'required',
  'enabled',
  'disabled',
  'expiry',
  'expires',
  'expiration',
  'expired',
  'at',
  'ttl',
  'name',
  'names',
  'url',
  'uri',
  'endpoint',
  'usage',
  'format',
  'kind',
  'set',
  'present',
  'provided',
  'changed',
  'updated',
  'created',
]);

/** Names longer than this are judged by their first characters: word splitting stays bounded on hostile keys. */
const MAX_NAME_CHARS = 128;
const CACHE_LIMIT = 4096;
const cache = new Map<string, boolean>();

/** Splits a field name into lower-case words: `dbPassword` → db, password; `X-API-Key` → x, api, key; `APIKey` → api, key. */
export function nameWords(name: string): string[] {
  return name
    .slice(0, MAX_NAME_CHARS)
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '');
}

/** Whether a field of this name holds a credential, by the rules in the module comment. */
export function isSensitiveName(name: string): boolean {
  const cached = cache.get(name);
  if (cached !== undefined) return cached;
  const sensitive = judge(nameWords(name));
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(name, sensitive);
  return sensitive;
}

function judge(words: string[]): boolean {
  if (words.length === 0) return false;
  const last = words[words.length - 1]!;
  if (words.length > 1 && METADATA_LAST_WORDS.has(last)) return false;
  const joined = words.join('');
  if (CREDENTIAL_SUBSTRINGS.some((part) => joined.includes(part))) return true;
  for (const [index, word] of words.entries()) {
    if (CREDENTIAL_WORDS.has(word)) return true;
    const before = index > 0 ? words[index - 1]! : undefined;
    if (word === 'key' && before !== undefined && KEY_QUALIFIERS.has(before)) return true;
    if (word === 'token' && (before === undefined || !NOT_CREDENTIAL_BEFORE_TOKEN.has(before))) return true;
  }
  return false;
}

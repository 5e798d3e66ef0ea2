/** Replaces secrets' values in a value an upstream MCP server sent back; see {@link createSecretMask}. */
export type SecretMask = <T>(value: T) => T;

// Shorter base64 runs would match ordinary binary data (images, hashes) far too often.
const MIN_BASE64_CHARS = 6;
const REGEX_SYNTAX = /[\\^$.*+?()[\]{}|/]/g;

/**
 * The one walk that keeps secrets out of everything an MCP server sends back (tool listings, results, errors): every
 * string, every object key and every number's digits, at any depth, has each secret's value replaced by its
 * `${user.<name>}` placeholder, longest value first. The value is also found percent-encoded (any byte or none, hex in
 * either case, a space as `+`) and as base64 or base64url at any of the three byte offsets it can start at, so a
 * `Basic` header or a query string quoted back is masked too; only the characters that encode nothing but the value
 * are replaced, so a neighbouring base64 character keeps at most 4 of its bits. Base64 is matched for values of 5
 * bytes or more. What holds no secret comes back as it was.
 * @example createSecretMask({ token: 't0k3n' })({ 't0k3n': 'bad t0k3n' }) // { '${user.token}': 'bad ${user.token}' }
 */
export function createSecretMask(secrets: Readonly<Record<string, string>>): SecretMask {
  const named = Object.entries(secrets)
    .filter(([, value]) => value !== '')
    .sort(([, a], [, b]) => b.length - a.length);
  if (named.length === 0) return (value) => value;
  const pattern = new RegExp(named.map(([, value]) => `(${formsOf(value).join('|')})`).join('|'), 'gu');
  const placeholders = named.map(([name]) => `\${user.${name}}`);
  const maskText = (text: string): string =>
    text.replace(pattern, (...match: unknown[]) => placeholders[match.findIndex((group, i) => i > 0 && group !== undefined) - 1] ?? '');
  const walk = (item: unknown): unknown => {
    if (typeof item === 'string') return maskText(item);
    if (typeof item === 'number' || typeof item === 'bigint') {
      const digits = String(item);
      const masked = maskText(digits);
      return masked === digits ? item : masked;
    }
    if (Array.isArray(item)) return item.map(walk);
    if (isPlainObject(item)) return Object.fromEntries(Object.entries(item).map(([key, inner]) => [maskText(key), walk(inner)]));
    return item;
  };
  return <T>(value: T): T => walk(value) as T;
}

/** Regex sources matching `value` as written or percent-encoded, and as base64 at each byte offset. */
function formsOf(value: string): string[] {
  const textual = [...value].map((char) => {
    const escapes = [...Buffer.from(char, 'utf8')].map((byte) => [...byte.toString(16).toUpperCase().padStart(2, '0')].map(hexClass).join('')).map((hex) => `%${hex}`);
    const alternatives = [escapeRegex(char), escapes.join(''), ...(char === ' ' ? ['\\+'] : [])];
    return `(?:${alternatives.join('|')})`;
  });
  return [textual.join(''), ...base64Runs(Buffer.from(value, 'utf8')).map(base64Class)];
}

/** The base64 characters that encode only `bytes`, for each of the 3 offsets they can start at in a longer text. */
function base64Runs(bytes: Buffer): string[] {
  const runs = [0, 1, 2].map((offset) => {
    const text = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
    return text.slice(Math.ceil((8 * offset) / 6), Math.floor((8 * (offset + bytes.length)) / 6));
  });
  return runs.filter((run) => run.length >= MIN_BASE64_CHARS);
}

// base64url spells '+' and '/' as '-' and '_'.
function base64Class(run: string): string {
  return [...run].map((char) => (char === '+' ? '[+\\-]' : char === '/' ? '[/_]' : char)).join('');
}

function hexClass(digit: string): string {
  return /[A-F]/.test(digit) ? `[${digit}${digit.toLowerCase()}]` : digit;
}

function escapeRegex(text: string): string {
  return text.replace(REGEX_SYNTAX, '\\$&');
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

// Replacing credential values by their placeholders in what comes back from a credential's hosts (through the egress
// proxy, web_fetch, or an MCP server), in the forms a server is likely to echo them in: as written, percent-encoded (any case, any subset of characters, `+` for a
// space), JSON- and HTML-escaped, and base64 (standard and URL-safe, at each of the three byte alignments, so a value
// inside a longer encoded text such as a Basic authorization or a JSON document is found too) of the value as written,
// JSON-escaped or percent-encoded.

/** A credential value and the placeholder that stands for it. */
export interface MaskedSecret {
  readonly value: string;
  readonly placeholder: string;
}

/** Replaces values in a stream: `push` each chunk, then `end` for what was held back. */
export interface StreamMask {
  push(chunk: Uint8Array): Buffer;
  end(): Buffer;
}

/** The replacement of a session's credential values, for bytes (responses) and for text (decoded results). */
export interface CredentialMask {
  /** A fresh streaming mask over bytes: an occurrence split across chunks is still found. */
  stream(): StreamMask;
  /** Bytes with every occurrence replaced. */
  bytes(input: Uint8Array): Buffer;
  /** A header name or value (Node gives them as latin1, one character per byte) with every occurrence replaced. */
  latin1(input: string): string;
  /** Decoded text (JS string) with every occurrence replaced. */
  text(input: string): string;
  /**
   * A JSON-like value (a tool result, an MCP message) with every string, object key and number's digits masked as
   * text, at any depth; what holds no value comes back as it was (the same object when there is nothing to mask).
   */
  value<T>(input: T): T;
}

/**
 * Base64 forms are looked for when their stable part is at least this long (a value of 5 bytes or more); shorter ones
 * would occur by chance.
 */
export const MIN_BASE64_FORM = 6;

interface Form {
  readonly pattern: string;
  readonly maxLength: number;
  readonly replacement: string;
}

/**
 * Builds the mask for a session's credentials. Bytes are read as latin1 (one character per byte), so a value is
 * matched as its UTF-8 bytes; `text` matches it as characters.
 * @example createCredentialMask([{ value: 's3cr3t/v', placeholder: 'tw-1' }]).text('auth s3cr3t%2Fv') // 'auth tw-1'
 */
export function createCredentialMask(secrets: readonly MaskedSecret[]): CredentialMask {
  const usable = secrets.filter((s) => s.value.length > 0);
  const bytesMatcher = buildMatcher(usable, 'bytes');
  const textMatcher = buildMatcher(usable, 'text');
  const bytesMask = (input: string): string => (bytesMatcher === undefined ? input : replaceAll(input, bytesMatcher));
  const textMask = (input: string): string => (textMatcher === undefined ? input : replaceAll(input, textMatcher));
  return {
    stream: () => (bytesMatcher === undefined ? passThrough() : streamMask(bytesMatcher)),
    bytes: (input) => Buffer.from(bytesMask(Buffer.from(input).toString('latin1')), 'latin1'),
    latin1: bytesMask,
    text: textMask,
    value: <T>(input: T): T => (textMatcher === undefined ? input : (maskValue(input, textMask) as T)),
  };
}

function maskValue(item: unknown, mask: (text: string) => string): unknown {
  if (typeof item === 'string') return mask(item);
  if (typeof item === 'number' || typeof item === 'bigint') {
    const digits = String(item);
    const masked = mask(digits);
    return masked === digits ? item : masked;
  }
  if (Array.isArray(item)) return item.map((inner) => maskValue(inner, mask));
  if (!isPlainObject(item)) return item;
  return Object.fromEntries(Object.entries(item).map(([key, inner]) => [mask(key), maskValue(inner, mask)]));
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

interface Matcher {
  readonly regex: RegExp;
  /** The groups of the regex in order, each standing for one form. */
  readonly groupReplacements: readonly string[];
  readonly maxLength: number;
}

function buildMatcher(secrets: readonly MaskedSecret[], as: 'bytes' | 'text'): Matcher | undefined {
  const forms = secrets.flatMap((secret) => formsOf(secret, as));
  if (forms.length === 0) return undefined;
  // Longest patterns first, so a longer form wins over a shorter one starting at the same place.
  forms.sort((a, b) => b.maxLength - a.maxLength);
  return {
    regex: new RegExp(forms.map((f) => `(${f.pattern})`).join('|'), 'g'),
    groupReplacements: forms.map((f) => f.replacement),
    maxLength: Math.max(...forms.map((f) => f.maxLength)),
  };
}

function formsOf(secret: MaskedSecret, as: 'bytes' | 'text'): Form[] {
  const chars = [...secret.value].map((char) => charAlternatives(char, as));
  const forms: Form[] = [{ pattern: chars.map((c) => `(?:${c.patterns.join('|')})`).join(''), maxLength: chars.reduce((n, c) => n + c.maxLength, 0), replacement: secret.placeholder }];
  // Base64 of the value as written, and of the value as JSON or a URL would have escaped it before encoding.
  const placeholderBytes = Buffer.from(secret.placeholder, 'utf8');
  const seen = new Set<string>();
  for (const written of new Set([secret.value, JSON.stringify(secret.value).slice(1, -1), encodeURIComponent(secret.value)])) {
    const valueBytes = Buffer.from(written, 'utf8');
    for (let align = 0; align < 3; align += 1) {
      for (const url of [false, true]) {
        const core = base64Core(valueBytes, align, url);
        if (core.length < MIN_BASE64_FORM || seen.has(core)) continue;
        seen.add(core);
        forms.push({ pattern: escapeRegex(core), maxLength: core.length, replacement: base64Core(placeholderBytes, align, url) });
      }
    }
  }
  return forms;
}

/** The ways one character of a value may be written back: the patterns (regex source) and the longest match. */
function charAlternatives(char: string, as: 'bytes' | 'text'): { patterns: string[]; maxLength: number } {
  const code = char.codePointAt(0) ?? 0;
  const utf8 = [...Buffer.from(char, 'utf8')];
  const literal = as === 'bytes' ? utf8.map((b) => String.fromCharCode(b)).join('') : char;
  const percent = utf8.map((b) => `%${hexPattern(b, 2)}`).join('');
  const units = char.length === 2 ? [char.charCodeAt(0), char.charCodeAt(1)] : [code];
  const json = units.map((u) => `\\\\u${hexPattern(u, 4)}`).join('');
  // Numeric character references, with up to four leading zeros (a bound keeps the longest match, and so what a stream holds back, finite).
  const html = [`&#[xX]0{0,4}${hexPattern(code, 0)};`, `&#0{0,4}${code};`];
  const patterns = [escapeRegex(literal), percent, json, ...html];
  let maxLength = Math.max(literal.length, utf8.length * 3, units.length * 6, 3 + 4 + code.toString(16).length + 1, 2 + 4 + String(code).length + 1);
  const short = SHORT_ESCAPES[char];
  if (short !== undefined) {
    patterns.push(...short.map(escapeRegex));
    maxLength = Math.max(maxLength, ...short.map((s) => s.length));
  }
  return { patterns, maxLength };
}

// JSON's two-character escapes, form encoding's space and HTML's named entities, for the characters that have them.
const SHORT_ESCAPES: Readonly<Record<string, readonly string[]>> = {
  '"': ['\\"', '&quot;'],
  '\\': ['\\\\'],
  '/': ['\\/'],
  ' ': ['+'],
  '&': ['&amp;'],
  '<': ['&lt;'],
  '>': ['&gt;'],
  "'": ['&apos;'],
};

/** A hex number in any case, `width` digits (0: as many as it takes). */
function hexPattern(value: number, width: number): string {
  const hex = width === 0 ? value.toString(16) : value.toString(16).padStart(width, '0');
  return [...hex].map((d) => (/[a-f]/.test(d) ? `[${d}${d.toUpperCase()}]` : d)).join('');
}

/**
 * The base64 characters that depend on the value's bytes alone when it starts `align` bytes into an encoded text
 * (unpadded; the partial characters at either end are left out).
 */
function base64Core(bytes: Buffer, align: number, url: boolean): string {
  const encoded = Buffer.concat([Buffer.alloc(align), bytes]).toString(url ? 'base64url' : 'base64').replace(/=+$/, '');
  const first = Math.ceil((8 * align) / 6);
  const last = Math.floor((8 * (align + bytes.length)) / 6);
  return encoded.slice(first, last);
}

function escapeRegex(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&').replace(/[\u0000-\u001f\u007f-\u00ff]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/** The placeholder form for a match: that of the one group (form) that matched. */
function replacementOf(matcher: Matcher, groups: ArrayLike<unknown>): string {
  for (let i = 1; i < groups.length; i += 1) if (groups[i] !== undefined) return matcher.groupReplacements[i - 1] ?? '';
  return '';
}

function replaceAll(input: string, matcher: Matcher): string {
  return input.replace(matcher.regex, (...args: unknown[]) => replacementOf(matcher, args.slice(0, 1 + matcher.groupReplacements.length)));
}

function streamMask(matcher: Matcher): StreamMask {
  // Enough is held back that an occurrence starting in what is sent on was whole in the buffer.
  const hold = matcher.maxLength - 1;
  let carry = '';
  return {
    push(chunk) {
      const text = carry + Buffer.from(chunk).toString('latin1');
      const cut = Math.max(0, text.length - hold);
      let out = '';
      let at = 0;
      const regex = new RegExp(matcher.regex.source, 'g');
      for (let match = regex.exec(text); match !== null && match.index < cut; match = regex.exec(text)) {
        out += text.slice(at, match.index) + replacementOf(matcher, match);
        at = match.index + match[0].length;
      }
      const sent = Math.max(cut, at);
      out += text.slice(at, sent);
      carry = text.slice(sent);
      return Buffer.from(out, 'latin1');
    },
    end() {
      const rest = replaceAll(carry, matcher);
      carry = '';
      return Buffer.from(rest, 'latin1');
    },
  };
}

function passThrough(): StreamMask {
  return { push: (chunk) => Buffer.from(chunk), end: () => Buffer.alloc(0) };
}

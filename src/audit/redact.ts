import type { AuditEvent } from './audit-event.js';

/** Strings longer than this are redacted in args and summarized in results. */
export const REDACT_OVER_CHARS = 200;
/** A summarized result keeps at most this many characters (less if a newline comes first). */
export const SUMMARY_KEEP_CHARS = 80;

const CONTENT_FIELDS: ReadonlySet<string> = new Set(['content', 'old_string', 'new_string', 'patch', 'input', 'body']);

/**
 * A JSON-safe copy of a call's arguments with long content replaced by `<redacted: N chars>`: every string
 * over 200 characters, and every field named content, old_string, new_string, patch, input or body (a
 * non-string one counts the characters of its JSON). With `full`, nothing is redacted; the copy is still
 * JSON-safe (bigints become strings, cycles `<circular>`).
 * @example redactArgs({ path: 'a.txt', content: 'hello' }, false) // { path: 'a.txt', content: '<redacted: 5 chars>' }
 */
export function redactArgs(args: unknown, full: boolean): unknown {
  return copyValue(args, full, new Set());
}

/**
 * A result text for the audit log: kept whole when at most 200 characters on one line; otherwise the text up
 * to the first newline or the first 80 characters, whichever is shorter, then ` <redacted: N chars>` where
 * N counts the characters removed. With `full`, the text unchanged.
 * @example summarizeResult('3 matches\na.ts:1:x', false) // '3 matches <redacted: 9 chars>'
 */
export function summarizeResult(text: string, full: boolean): string {
  if (full || (text.length <= REDACT_OVER_CHARS && !text.includes('\n'))) return text;
  const newline = text.indexOf('\n');
  let keep = newline === -1 ? SUMMARY_KEEP_CHARS : Math.min(newline, SUMMARY_KEEP_CHARS);
  // Do not cut a surrogate pair in half: the log would hold a lone surrogate.
  if (keep > 0 && isHighSurrogate(text.charCodeAt(keep - 1))) keep -= 1;
  return `${text.slice(0, keep)} ${placeholder(text.length - keep)}`;
}

/** The event as a sink records it: args redacted and the result summarized, unless `full`. */
export function redactEvent(event: AuditEvent, full: boolean): AuditEvent {
  const redacted: AuditEvent = { ...event, args: redactArgs(event.args, full) };
  if (event.result !== undefined) redacted.result = summarizeResult(event.result, full);
  return redacted;
}

function copyValue(value: unknown, full: boolean, ancestors: Set<object>): unknown {
  if (typeof value === 'string') return !full && value.length > REDACT_OVER_CHARS ? placeholder(value.length) : value;
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'function' || typeof value === 'symbol') return `<${typeof value}>`;
  if (typeof value !== 'object' || value === null) return value;
  if (ancestors.has(value)) return '<circular>';
  ancestors.add(value);
  const copy = Array.isArray(value)
    ? value.map((item: unknown) => copyValue(item, full, ancestors))
    : Object.fromEntries(Object.entries(value).map(([key, field]) => [key, copyField(key, field, full, ancestors)]));
  ancestors.delete(value);
  return copy;
}

function copyField(key: string, value: unknown, full: boolean, ancestors: Set<object>): unknown {
  if (full || !CONTENT_FIELDS.has(key) || value === undefined || value === null) return copyValue(value, full, ancestors);
  if (typeof value === 'string') return placeholder(value.length);
  const json = JSON.stringify(copyValue(value, true, ancestors));
  return placeholder(json === undefined ? 0 : json.length);
}

function placeholder(chars: number): string {
  return `<redacted: ${chars} chars>`;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

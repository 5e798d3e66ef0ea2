/** Longest client label the dashboard shows: clientInfo is the client's own text. */
export const MAX_CLIENT_LABEL_CHARS = 64;

/**
 * The name and version an MCP client gave in `initialize` (`clientInfo`), as one line a person reads: control, format
 * and bidi characters removed, whitespace collapsed, bounded, so a client cannot draw a fake line or pass for another.
 * `undefined` when it gave no name.
 * @example clientLabel({ name: 'claude-code', version: '2.1.0' }) // 'claude-code 2.1.0'
 */
export function clientLabel(info: unknown): string | undefined {
  if (typeof info !== 'object' || info === null) return undefined;
  const { name, version } = info as { name?: unknown; version?: unknown };
  if (typeof name !== 'string') return undefined;
  const text = `${name} ${typeof version === 'string' ? version : ''}`.replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, ' ').replace(/\s+/g, ' ').trim();
  if (text === '') return undefined;
  // A cut between the two halves of a surrogate pair would leave half a character.
  return text.length <= MAX_CLIENT_LABEL_CHARS ? text : `${text.slice(0, MAX_CLIENT_LABEL_CHARS - 3).replace(/[\uD800-\uDBFF]$/, '')}...`;
}

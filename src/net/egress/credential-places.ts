import { credentialsFor, type PlacedCredential } from './credentials.js';

/**
 * A request target (`/path?query`) with the placeholders of credentials that opted in to `'query'` replaced by their
 * URL-encoded value, for host:port only; the path before `?` is never touched.
 * @example substituteQuery('/search?key=tw-K-1', creds, 'api.example.com', 443) // '/search?key=real%2Fvalue'
 */
export function substituteQuery(target: string, credentials: readonly PlacedCredential[], host: string, port: number): string {
  const question = target.indexOf('?');
  const usable = credentialsFor(credentials, 'query', host, port);
  if (question === -1 || usable.length === 0) return target;
  const query = usable.reduce((acc, c) => acc.split(c.placeholder).join(encodeURIComponent(c.value)), target.slice(question));
  return `${target.slice(0, question)}${query}`;
}

/** Replaces placeholders in a body as it streams: `push` each chunk, then `end` for what was held back. */
export interface BodySubstitution {
  push(chunk: Uint8Array): Buffer;
  end(): Buffer;
}

/**
 * A streaming replacement of the placeholders of credentials that opted in to `'body'` by their (UTF-8) values, for
 * host:port only, or undefined when none applies (the body then passes untouched). A placeholder split across chunks
 * is still found: the tail that could start one is held back until the next chunk. Bytes are handled as latin1, one
 * character per byte, so any body (text or not) passes through unchanged outside the placeholders.
 */
export function createBodySubstitution(credentials: readonly PlacedCredential[], host: string, port: number): BodySubstitution | undefined {
  const usable = credentialsFor(credentials, 'body', host, port).map((c) => ({ placeholder: c.placeholder, value: Buffer.from(c.value, 'utf8').toString('latin1') }));
  if (usable.length === 0) return undefined;
  let carry = '';
  return {
    push(chunk) {
      const text = carry + Buffer.from(chunk).toString('latin1');
      let out = '';
      let at = 0;
      for (;;) {
        let next: { index: number; placeholder: string; value: string } | undefined;
        for (const u of usable) {
          const index = text.indexOf(u.placeholder, at);
          if (index !== -1 && (next === undefined || index < next.index)) next = { index, ...u };
        }
        if (next === undefined) break;
        out += text.slice(at, next.index) + next.value;
        at = next.index + next.placeholder.length;
      }
      const rest = text.slice(at);
      const held = heldBack(rest, usable.map((u) => u.placeholder));
      carry = rest.slice(rest.length - held);
      return Buffer.from(out + rest.slice(0, rest.length - held), 'latin1');
    },
    end() {
      const rest = carry;
      carry = '';
      return Buffer.from(rest, 'latin1');
    },
  };
}

/** How many characters at the end of `text` could begin one of the placeholders. */
function heldBack(text: string, placeholders: readonly string[]): number {
  let longest = 0;
  for (const placeholder of placeholders) {
    for (let length = Math.min(placeholder.length - 1, text.length); length > longest; length -= 1) {
      if (text.endsWith(placeholder.slice(0, length))) {
        longest = length;
        break;
      }
    }
  }
  return longest;
}

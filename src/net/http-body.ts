import iconv from 'iconv-lite';

/** A response body made presentable: decoded text, base64 for small binaries, or omitted. */
export interface DecodedBody {
  readonly body: string;
  readonly encoding: 'text' | 'base64' | 'omitted';
  /** The charset text was decoded with (utf-8 when the server named none or an unknown one). */
  readonly charset?: string;
}

/** Binary bodies up to this many bytes are returned as base64; larger ones are only summarized. */
export const BINARY_INLINE_MAX_BYTES = 16 * 1024;

const TEXT_TYPES = /^(text\/|application\/(json|xml|javascript|ecmascript|x-www-form-urlencoded|x-ndjson|graphql)\b|[^;]*\+(json|xml)\b)/i;

/**
 * Decodes a body by its Content-Type: text types by their `charset` parameter (iconv-lite, utf-8 by default);
 * a body without a Content-Type counts as text when it is valid UTF-8; other binaries become base64 or a summary.
 */
export function decodeBody(bytes: Uint8Array, contentType: string | undefined): DecodedBody {
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? '')?.[1]?.toLowerCase();
  const isText = contentType === undefined || contentType === '' ? isValidUtf8(bytes) : TEXT_TYPES.test(contentType.trim());
  if (isText) {
    const chosen = charset !== undefined && iconv.encodingExists(charset) ? charset : 'utf-8';
    return { body: iconv.decode(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), chosen), encoding: 'text', charset: chosen };
  }
  if (bytes.byteLength <= BINARY_INLINE_MAX_BYTES) return { body: Buffer.from(bytes).toString('base64'), encoding: 'base64' };
  return { body: '', encoding: 'omitted' };
}

function isValidUtf8(bytes: Uint8Array): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

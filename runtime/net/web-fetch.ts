import type { IncomingHttpHeaders } from 'node:http';
import type { SecureContext } from 'node:tls';
import { toPlainError, ToolwardenError } from '../../src/errors.js';
import type { CredentialMask } from '../../src/net/egress/credential-mask.js';
import { parseHttpUrl, validateFetchRequest, type WebFetchRequest } from '../../src/net/fetch-request.js';
import { decodeBody } from '../../src/net/http-body.js';
import type { NetPermission } from '../../src/net/net-permission.js';
import { errorResult, okResult, type ToolResult } from '../../src/tool-result.js';
import { REDIRECT_STATUSES, sendPinnedRequest } from './pinned-request.js';
import { headersAfterRedirect, type RedirectBody } from './redirect-headers.js';
import { systemLookup, vetAuthority, type HostLookup } from './resolve-vetted.js';

/** Options the broker supplies to {@link webFetch}. */
export interface WebFetchOptions {
  /** The session's network permission. */
  readonly net: NetPermission;
  /** Time for the whole fetch, redirects and DNS included; past it the result is TIMEOUT. */
  readonly timeoutMs: number;
  /** Body bytes kept at most (a request's own maxBytes can only lower it). */
  readonly maxBytes: number;
  /** DNS resolver. @default the system resolver */
  readonly lookup?: HostLookup;
  /** Cancels the fetch (e.g. the tool call was cancelled). */
  readonly signal?: AbortSignal;
  /**
   * The headers as sent to `url` (each hop on its own): the session's credential placeholders replaced for that
   * host only. The redirect rules see the placeholders, never the values. With them, the mask for what comes back
   * when the hop's host is a credential's.
   */
  readonly substitute?: (headers: Readonly<Record<string, string>>, url: URL) => FetchHop;
}

/**
 * One hop's headers as sent, and, when its host is one of a credential's, the credential mask for its answer and the
 * TLS trust for it (`upstreamCa`).
 */
export interface FetchHop {
  readonly headers: Record<string, string>;
  readonly mask: CredentialMask | undefined;
  readonly secureContext?: SecureContext;
}

/** Redirects followed at most before the fetch fails. */
export const MAX_REDIRECTS = 5;

const SAFE_HEADERS = ['content-type', 'content-length', 'content-encoding', 'content-language', 'content-disposition', 'last-modified', 'etag', 'cache-control', 'expires', 'date', 'location', 'retry-after'];

/**
 * The `web_fetch` tool: checks the host (and its DNS answers) before connecting and on every redirect, connects
 * to the vetted address, bounds size and time, and decodes text by charset. Never throws: failures are error
 * results (INVALID_ARGS, NET_DENIED, TIMEOUT, IO_ERROR); a non-2xx status is a normal result. Once a hop went to a
 * credential's host, answers are asked uncompressed and whole (decoded if compressed anyway) and every form of the
 * session's credential values in the result, error or not, is replaced by its placeholder.
 *
 * @example await webFetch({ url: 'https://example.com/' }, { net: ['example.com'], timeoutMs: 10_000, maxBytes: 1_000_000 })
 */
export async function webFetch(req: WebFetchRequest, opts: WebFetchOptions): Promise<ToolResult> {
  const deadline = AbortSignal.timeout(opts.timeoutMs);
  const signal = opts.signal ? AbortSignal.any([deadline, opts.signal]) : deadline;
  const masked: { mask: CredentialMask | undefined } = { mask: undefined };
  const result = await fetchFollowingRedirects(req, opts, signal, masked).catch((error: unknown) => {
    if (deadline.aborted) return errorResult('TIMEOUT', `web_fetch: ${req.url} did not complete within ${opts.timeoutMs} ms`);
    if (signal.aborted) return errorResult('IO_ERROR', `web_fetch: ${req.url} was cancelled`);
    if (error instanceof ToolwardenError) return errorResult(error.code, error.message);
    const plain = toPlainError(error);
    return errorResult(plain.code === 'INTERNAL' ? 'IO_ERROR' : plain.code, `web_fetch: ${req.url} failed: ${plain.message}`);
  });
  return masked.mask === undefined ? result : masked.mask.value(result);
}

/**
 * Follows the redirects; `masked.mask` is set from the first hop to a credential's host on, so that hop's answer
 * and every later one are masked.
 */
async function fetchFollowingRedirects(req: WebFetchRequest, opts: WebFetchOptions, signal: AbortSignal, masked: { mask: CredentialMask | undefined }): Promise<ToolResult> {
  const checked = validateFetchRequest(req);
  const maxBytes = Math.min(checked.maxBytes ?? opts.maxBytes, opts.maxBytes);
  let { method, body } = checked;
  let { url, authority } = checked.url;
  let headers: Record<string, string> = { 'user-agent': 'toolwarden-web-fetch', ...checked.headers };
  for (let hop = 0; ; hop += 1) {
    const target = await vetAuthority(authority, opts.net, opts.lookup ?? systemLookup, signal);
    const substituted = opts.substitute?.(headers, url) ?? { headers, mask: undefined };
    masked.mask ??= substituted.mask;
    const mask = masked.mask;
    const sent = mask === undefined ? substituted.headers : wholeAndUncompressed(substituted.headers);
    const trust = substituted.secureContext === undefined ? {} : { secureContext: substituted.secureContext };
    const response = await sendPinnedRequest({ url, target, method, headers: sent, ...(body === undefined ? {} : { body }), ...trust, maxBytes, signal, decode: mask !== undefined });
    const location = response.headers.location;
    if (!REDIRECT_STATUSES.has(response.status) || location === undefined) {
      // A body cut at maxBytes may end inside a value: what the mask still held back (a possible start of one) goes.
      const stream = mask?.stream();
      const bytes = stream === undefined ? response.bytes : Buffer.concat([stream.push(response.bytes), response.truncated ? Buffer.alloc(0) : stream.end()]);
      return buildResult(checked.url.url, url, response.status, response.headers, bytes, response.truncated);
    }
    if (hop >= MAX_REDIRECTS) throw new ToolwardenError('IO_ERROR', `web_fetch: ${checked.url.url.href} redirected more than ${MAX_REDIRECTS} times (last to ${location})`);
    const next = parseHttpUrl(location, url);
    // Browsers turn a redirected POST into a GET for 301-303; 307/308 keep the method and body.
    let bodyFate: RedirectBody = body === undefined ? 'none' : 'resent';
    if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === 'POST')) {
      method = method === 'HEAD' ? 'HEAD' : 'GET';
      if (body !== undefined) bodyFate = 'dropped';
      body = undefined;
    }
    headers = headersAfterRedirect(headers, url, next.url, bodyFate);
    ({ url, authority } = next);
  }
}

/** Headers asking for the whole body, uncompressed: a compressed or partial answer could hide a value from the mask. */
function wholeAndUncompressed(headers: Readonly<Record<string, string>>): Record<string, string> {
  return { ...Object.fromEntries(Object.entries(headers).filter(([name]) => name !== 'range' && name !== 'if-range')), 'accept-encoding': 'identity' };
}

function buildResult(original: URL, final: URL, status: number, headers: IncomingHttpHeaders, bytes: Uint8Array, truncated: boolean): ToolResult {
  const contentType = headers['content-type'];
  const decoded = decodeBody(bytes, contentType);
  const safeHeaders = Object.fromEntries(SAFE_HEADERS.flatMap((name) => (typeof headers[name] === 'string' ? [[name, headers[name]]] : [])));
  const note = truncated ? ` (body truncated at ${bytes.byteLength} bytes)` : '';
  const shown =
    decoded.encoding === 'text' ? decoded.body
    : decoded.encoding === 'base64' ? `[binary body, ${bytes.byteLength} bytes, base64]\n${decoded.body}`
    : `[binary body of ${bytes.byteLength} bytes (${contentType ?? 'no content type'}) not shown]`;
  return okResult(`HTTP ${status} ${final.href}${note}\n\n${shown}`, {
    url: original.href,
    finalUrl: final.href,
    status,
    headers: safeHeaders,
    body: decoded.body,
    bodyEncoding: decoded.encoding,
    ...(decoded.charset === undefined ? {} : { charset: decoded.charset }),
    truncated,
    bytes: bytes.byteLength,
  });
}

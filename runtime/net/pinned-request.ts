import http, { type IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { isIPv6 } from 'node:net';

/** One HTTP request to an address vetted beforehand, so DNS cannot answer differently at connect time. */
export interface PinnedRequest {
  readonly url: URL;
  /** The vetted IP the connection goes to (bare, no brackets). */
  readonly address: string;
  readonly method: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  readonly maxBytes: number;
  readonly signal: AbortSignal;
}

/** The raw answer: the body is cut at maxBytes (then `truncated`), and not read at all for a redirect. */
export interface RawResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly bytes: Uint8Array;
  readonly truncated: boolean;
}

/** Statuses that carry a Location to follow. */
export const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/** Sends the request over a fresh connection to `address` (TLS still verifies the URL's host name). */
export function sendPinnedRequest(req: PinnedRequest): Promise<RawResponse> {
  const family = isIPv6(req.address) ? 6 : 4;
  const lookup: LookupFunction = (_hostname, options, callback) => {
    if (options.all) (callback as (err: null, addresses: { address: string; family: number }[]) => void)(null, [{ address: req.address, family }]);
    else callback(null, req.address, family);
  };
  const transport = req.url.protocol === 'https:' ? https : http;
  return new Promise<RawResponse>((resolve, reject) => {
    const request = transport.request({
      protocol: req.url.protocol,
      hostname: req.url.hostname.replace(/^\[|\]$/g, ''),
      port: req.url.port === '' ? undefined : Number(req.url.port),
      path: `${req.url.pathname}${req.url.search}`,
      method: req.method,
      headers: req.headers,
      agent: false,
      lookup,
      signal: req.signal,
    });
    request.once('error', reject);
    request.once('response', (response) => {
      const status = response.statusCode ?? 0;
      if (REDIRECT_STATUSES.has(status) && response.headers.location !== undefined) {
        response.destroy();
        resolve({ status, headers: response.headers, bytes: new Uint8Array(0), truncated: false });
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      let settled = false;
      response.on('data', (chunk: Buffer) => {
        if (settled) return;
        const room = req.maxBytes - size;
        if (chunk.byteLength > room) {
          chunks.push(chunk.subarray(0, room));
          settled = true;
          response.destroy();
          resolve({ status, headers: response.headers, bytes: Buffer.concat(chunks), truncated: true });
          return;
        }
        chunks.push(chunk);
        size += chunk.byteLength;
      });
      response.once('end', () => {
        if (!settled) resolve({ status, headers: response.headers, bytes: Buffer.concat(chunks), truncated: false });
        settled = true;
      });
      response.once('error', (error) => {
        if (!settled) reject(error);
        settled = true;
      });
    });
    request.end(req.body);
  });
}

import http, { type IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { pipeline, type Readable } from 'node:stream';
import type { SecureContext } from 'node:tls';
import { ToolwardenError } from '../../src/errors.js';
import { bareHost, formatAuthority } from '../../src/net/authority.js';
import { defaultPortOf } from '../../src/net/url-authority.js';
import { codingsOf, decodersFor } from './content-decoding.js';
import type { VettedTarget } from './resolve-vetted.js';

/** One HTTP request to an address vetted beforehand, so DNS cannot answer differently at connect time. */
export interface PinnedRequest {
  /** The scheme, path and query sent; the host and port come from `target` alone. */
  readonly url: URL;
  /** The checked host and port and the address the connection goes to. */
  readonly target: VettedTarget;
  readonly method: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  readonly maxBytes: number;
  readonly signal: AbortSignal;
  /** Undo the answer's content codings (gzip, deflate, br; another is IO_ERROR), so maxBytes counts decoded bytes. */
  readonly decode?: boolean;
  /** The TLS trust for an https URL. @default Node's default trust */
  readonly secureContext?: SecureContext;
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

/**
 * Sends the request over a fresh connection to the vetted address and port (TLS still verifies the checked host name,
 * and the Host header names it).
 */
export function sendPinnedRequest(req: PinnedRequest): Promise<RawResponse> {
  const { authority, address } = req.target;
  const secure = req.url.protocol === 'https:';
  const transport = secure ? https : http;
  const name = bareHost(authority.host);
  return new Promise<RawResponse>((resolve, reject) => {
    const request = transport.request({
      protocol: req.url.protocol,
      host: address,
      port: authority.port,
      path: `${req.url.pathname}${req.url.search}`,
      method: req.method,
      headers: { ...req.headers, host: formatAuthority(authority, defaultPortOf(req.url.protocol)) },
      setHost: false,
      agent: false,
      signal: req.signal,
      ...(secure && isIP(name) === 0 ? { servername: name } : {}),
      ...(secure && req.secureContext !== undefined ? { secureContext: req.secureContext } : {}),
    });
    request.once('error', reject);
    request.once('response', (response) => {
      const status = response.statusCode ?? 0;
      if (REDIRECT_STATUSES.has(status) && response.headers.location !== undefined) {
        response.destroy();
        resolve({ status, headers: response.headers, bytes: new Uint8Array(0), truncated: false });
        return;
      }
      let headers = response.headers;
      let body: Readable = response;
      if (req.decode === true) {
        const decoders = decodersFor(codingsOf(response.headers));
        if ('unsupported' in decoders) {
          response.destroy();
          reject(new ToolwardenError('IO_ERROR', `web_fetch: the answer is encoded with ${JSON.stringify(decoders.unsupported)}, which cannot be looked into for credentials`));
          return;
        }
        if (decoders.length > 0) {
          // The body handed on is decoded: its coding and length no longer describe it.
          headers = Object.fromEntries(Object.entries(response.headers).filter(([name]) => name !== 'content-encoding' && name !== 'content-length'));
          pipeline([response, ...decoders], () => undefined);
          body = decoders[decoders.length - 1] ?? response;
        }
      }
      const chunks: Buffer[] = [];
      let size = 0;
      let settled = false;
      body.on('data', (chunk: Buffer) => {
        if (settled) return;
        const room = req.maxBytes - size;
        if (chunk.byteLength > room) {
          chunks.push(chunk.subarray(0, room));
          settled = true;
          response.destroy();
          body.destroy();
          resolve({ status, headers, bytes: Buffer.concat(chunks), truncated: true });
          return;
        }
        chunks.push(chunk);
        size += chunk.byteLength;
      });
      body.once('end', () => {
        if (!settled) resolve({ status, headers, bytes: Buffer.concat(chunks), truncated: false });
        settled = true;
      });
      body.once('error', (error) => {
        if (!settled) reject(error);
        settled = true;
      });
    });
    request.end(req.body);
  });
}

import http, { type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { pipeline, Transform, type Readable } from 'node:stream';
import tls from 'node:tls';
import { bareHost, formatAuthority } from '../../../src/net/authority.js';
import type { CredentialMask } from '../../../src/net/egress/credential-mask.js';
import { codingsOf, decodersFor } from '../content-decoding.js';
import type { VettedTarget } from '../resolve-vetted.js';
import type { Attempt } from './egress-audit.js';
import type { ProxySession } from './proxy-session.js';
import { refuseResponse, withoutHopByHop } from './proxy-wire.js';

/**
 * Sends one HTTP request to the vetted address and port (over TLS for an intercepted host, verified against the
 * checked name), with credentials substituted and hop-by-hop headers dropped, the Host header naming the checked
 * authority; streams the answer back and audits the exchange. The answer of a credential's host is masked: asked
 * uncompressed and whole (no Range), decoded if it comes compressed anyway (gzip, deflate, br; another coding is
 * refused), and every form of every value in its headers and body replaced by the placeholder.
 */
export function forwardRequest(session: ProxySession, attempt: Attempt, target: VettedTarget, req: IncomingMessage, res: ServerResponse, scheme: 'http' | 'https', path: string): void {
  const { authority } = target;
  const { host, port } = authority;
  const interceptor = session.options.interceptor;
  const mask = interceptor?.responseMask(host, port);
  const headers = withoutHopByHop(interceptor === undefined ? req.headers : interceptor.substitute(req.headers, host, port));
  headers['host'] = formatAuthority(authority, scheme === 'https' ? 443 : 80);
  if (mask !== undefined) {
    // A compressed answer hides a value from the mask, and ranges would let two answers carry half a value each.
    headers['accept-encoding'] = 'identity';
    delete headers['range'];
    delete headers['if-range'];
  }
  const sentPath = interceptor === undefined ? path : interceptor.substituteTarget(path, host, port);
  const hasBody = req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined;
  const substitution = hasBody ? interceptor?.bodyFor(host, port) : undefined;
  // A value need not be as long as its placeholder: such a body goes out chunked.
  if (substitution !== undefined) delete headers['content-length'];
  const opened = session.budget.openUpstream(target);
  if (opened === undefined) {
    refuseResponse(res, 429, 'EGRESS_LIMIT', session.budget.message('egressMaxConnections'));
    session.limitRefused(attempt, 'egressMaxConnections');
    return;
  }
  const connection = opened.socket;
  session.track(connection);
  // Audit bytes are the request and answer bodies; the budget counts every byte on `connection`.
  let bytesOut = 0;
  let bytesIn = 0;
  const name = bareHost(host);
  const upstream = (scheme === 'https' ? https : http).request({
    host: target.address,
    port,
    method: req.method,
    path: sentPath,
    headers,
    setHost: false,
    createConnection:
      scheme === 'https'
        ? () => tls.connect({ socket: connection, host: name, ...(isIP(name) === 0 ? { servername: name } : {}), ...(interceptor?.upstreamTrust === undefined ? {} : { secureContext: interceptor.upstreamTrust }) })
        : () => connection,
  });
  let finished = false;
  const done = (decision: 'allow' | 'error', message?: string): void => {
    if (finished) return;
    finished = true;
    opened.release();
    connection.destroy();
    if (connection.cut) session.limitRefused(attempt, 'egressMaxBytes', { address: target.address, bytesOut, bytesIn });
    else session.audit(attempt, decision, { rule: target.rule, address: target.address, bytesOut, bytesIn, ...(message === undefined ? {} : { code: 'IO_ERROR', message }) });
  };
  req.on('data', (chunk: Buffer) => (bytesOut += chunk.byteLength));
  // A client that goes away ends the exchange, and frees its connection out.
  res.once('close', () => {
    if (!finished) upstream.destroy();
  });
  if (substitution === undefined) req.pipe(upstream);
  else {
    const replacing = new Transform({ transform: (chunk: Buffer, _encoding, next) => next(null, substitution.push(chunk)), flush: (next) => next(null, substitution.end()) });
    req.pipe(replacing).pipe(upstream);
  }
  upstream.once('response', (response) => {
    response.on('data', (chunk: Buffer) => (bytesIn += chunk.byteLength));
    const answered = (error?: Error | null): void => {
      if (error) res.destroy();
      done(error ? 'error' : 'allow', error ? `egress: the answer of ${formatAuthority(authority)} failed: ${error.message}` : undefined);
    };
    if (mask === undefined) {
      res.writeHead(response.statusCode ?? 502, withoutHopByHop(response.headers));
      pipeline(response, res, answered);
      return;
    }
    const decoders = decodersFor(codingsOf(response.headers));
    if ('unsupported' in decoders) {
      response.destroy();
      const message = `egress: the answer of ${formatAuthority(authority)} is encoded with ${JSON.stringify(mask.latin1(decoders.unsupported))}, which the proxy cannot look into for credentials`;
      refuseResponse(res, 502, 'IO_ERROR', message);
      done('error', message);
      return;
    }
    res.writeHead(response.statusCode ?? 502, maskedHeaders(withoutHopByHop(response.headers), mask));
    const stream = mask.stream();
    const masking = new Transform({ transform: (chunk: Buffer, _encoding, next) => next(null, stream.push(chunk)), flush: (next) => next(null, stream.end()) });
    pipeline([response as Readable, ...decoders, masking, res], answered);
  });
  upstream.once('error', (error) => {
    const message = `egress: ${formatAuthority(authority)} failed: ${error.message}`;
    if (res.headersSent) res.destroy();
    else if (connection.cut) refuseResponse(res, 429, 'EGRESS_LIMIT', session.budget.message('egressMaxBytes'));
    else refuseResponse(res, 502, 'IO_ERROR', message);
    done('error', message);
  });
}

/** Answer headers with every value's forms replaced in names and values; the body's length and coding no longer hold. */
function maskedHeaders(headers: OutgoingHttpHeaders, mask: CredentialMask): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (name === 'content-length' || name === 'content-encoding' || value === undefined) continue;
    out[mask.latin1(name)] = Array.isArray(value) ? value.map((v) => mask.latin1(v)) : mask.latin1(String(value));
  }
  return out;
}

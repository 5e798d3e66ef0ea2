import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import { Transform } from 'node:stream';
import { bareHost, formatAuthority } from '../../../src/net/authority.js';
import { isIP } from 'node:net';
import type { Attempt, ProxySession } from './egress-proxy.js';
import { refuseResponse, withoutHopByHop } from './proxy-wire.js';
import type { VettedTarget } from '../resolve-vetted.js';

/**
 * Sends one HTTP request to the vetted address and port (over TLS for an intercepted host, verified against the
 * checked name), with credentials substituted and hop-by-hop headers dropped, the Host header naming the checked
 * authority; streams the answer back and audits the exchange.
 */
export function forwardRequest(session: ProxySession, attempt: Attempt, target: VettedTarget, req: IncomingMessage, res: ServerResponse, scheme: 'http' | 'https', path: string): void {
  const { authority } = target;
  const { host, port } = authority;
  const interceptor = session.options.interceptor;
  const headers = withoutHopByHop(interceptor === undefined ? req.headers : interceptor.substitute(req.headers, host, port));
  headers['host'] = formatAuthority(authority, scheme === 'https' ? 443 : 80);
  const sentPath = interceptor === undefined ? path : interceptor.substituteTarget(path, host, port);
  const hasBody = req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined;
  const substitution = hasBody ? interceptor?.bodyFor(host, port) : undefined;
  // A value need not be as long as its placeholder: such a body goes out chunked.
  if (substitution !== undefined) delete headers['content-length'];
  let bytesOut = 0;
  let bytesIn = 0;
  const name = bareHost(host);
  const upstreamCa = session.options.upstreamCa;
  const upstream = (scheme === 'https' ? https : http).request({
    host: target.address,
    port,
    method: req.method,
    path: sentPath,
    headers,
    setHost: false,
    agent: false,
    ...(scheme === 'https' ? { ...(isIP(name) === 0 ? { servername: name } : {}), ...(upstreamCa === undefined ? {} : { ca: upstreamCa as string | string[] }) } : {}),
  });
  let finished = false;
  const done = (decision: 'allow' | 'error' | 'cut', message?: string): void => {
    if (finished) return;
    finished = true;
    if (decision === 'cut') session.limitRefused(attempt, 'egressMaxBytes', { address: target.address, bytesOut, bytesIn });
    else session.audit(attempt, decision, { rule: target.rule, address: target.address, bytesOut, bytesIn, ...(message === undefined ? {} : { code: 'IO_ERROR', message }) });
  };
  const meter = (chunk: Buffer): void => {
    if (session.spend(chunk.byteLength) || finished) return;
    done('cut');
    upstream.destroy();
    res.destroy();
  };
  req.on('data', (chunk: Buffer) => {
    bytesOut += chunk.byteLength;
    meter(chunk);
  });
  if (substitution === undefined) req.pipe(upstream);
  else {
    const replacing = new Transform({ transform: (chunk: Buffer, _encoding, next) => next(null, substitution.push(chunk)), flush: (next) => next(null, substitution.end()) });
    req.pipe(replacing).pipe(upstream);
  }
  upstream.once('response', (response) => {
    res.writeHead(response.statusCode ?? 502, withoutHopByHop(response.headers));
    response.on('data', (chunk: Buffer) => {
      bytesIn += chunk.byteLength;
      meter(chunk);
    });
    response.pipe(res);
    response.once('end', () => done('allow'));
    response.once('error', () => res.destroy());
  });
  upstream.once('error', (error) => {
    const message = `egress: ${formatAuthority(authority)} failed: ${error.message}`;
    if (!res.headersSent) refuseResponse(res, 502, 'IO_ERROR', message);
    else res.destroy();
    done('error', message);
  });
}

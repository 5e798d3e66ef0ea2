// Forwards every request to `serve --http` with an Authorization header: the conformance suite's client sends none.
// Usage: node .ci/mcp-conformance-proxy.mjs TARGET_URL TOKEN; prints "PROXY http://127.0.0.1:PORT/mcp" when listening.
import http from 'node:http';

const [target, token] = process.argv.slice(2);
if (!target || !token) {
  console.error('usage: mcp-conformance-proxy.mjs TARGET_URL TOKEN');
  process.exit(2);
}
const upstream = new URL(target);
const LOOPBACK = /^(https?:\/\/)?(127\.0\.0\.1|localhost|\[::1\])(:\d+)?$/;

/** The same loopback host (or origin) with the server's port instead of the proxy's; undefined for anything else. */
function toUpstream(value, isOrigin) {
  const match = typeof value === 'string' ? LOOPBACK.exec(value) : null;
  if (!match) return undefined;
  const port = match[3] === undefined ? undefined : Number(match[3].slice(1));
  if (port !== undefined && port !== server.address().port) return undefined;
  return `${isOrigin ? (match[1] ?? 'http://') : ''}${match[2]}:${upstream.port}`;
}

const server = http.createServer((req, res) => {
  const headers = { ...req.headers, authorization: `Bearer ${token}` };
  // A loopback Host or Origin naming this proxy is rewritten to name the server, as if the client had talked to it
  // directly; a foreign one (the suite's DNS-rebinding checks) is passed on unchanged for the server to refuse.
  headers.host = toUpstream(req.headers.host, false) ?? req.headers.host;
  if (req.headers.origin) headers.origin = toUpstream(req.headers.origin, true) ?? req.headers.origin;
  const forward = http.request({ hostname: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers }, (reply) => {
    res.writeHead(reply.statusCode ?? 502, reply.headers);
    reply.pipe(res);
  });
  forward.on('error', (error) => {
    if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
    res.end(`proxy: ${error.message}`);
  });
  res.on('close', () => forward.destroy());
  req.pipe(forward);
});
server.listen(0, '127.0.0.1', () => console.log(`PROXY http://127.0.0.1:${server.address().port}${upstream.pathname}`));

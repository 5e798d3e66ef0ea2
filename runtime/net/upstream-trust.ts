import tls, { type SecureContext } from 'node:tls';

/**
 * The TLS trust for connections to intercepted (credential) hosts when `upstreamCa` is set: Node's bundled roots
 * plus those CAs, built once per runtime. Only the egress proxy's intercepted requests and web_fetch's hops to a
 * credential's host use it; every other connection keeps Node's default trust, and verification stays on for all.
 * @example https.request({ host, secureContext: createUpstreamTrust(parseUpstreamCa(pem)) })
 */
export function createUpstreamTrust(certs: readonly string[]): SecureContext {
  return tls.createSecureContext({ ca: [...tls.rootCertificates, ...certs] });
}

import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import type { OutgoingHttpHeaders } from 'node:http';
import { join } from 'node:path';
import type { SecureContext } from 'node:tls';
import { credentialsCover, substituteHeader, type Credentials, type PlacedCredential } from '../../../src/net/egress/credentials.js';
import { createBodySubstitution, substituteQuery } from '../../../src/net/egress/credential-places.js';
import { createCredentialMask } from '../../../src/net/egress/credential-mask.js';
import { resolveCredentialReferences } from '../../../src/net/egress/credential-references.js';
import { defaultPortOf } from '../../../src/net/url-authority.js';
import type { FetchHop } from '../web-fetch.js';
import type { EgressInterceptor } from './egress-proxy.js';
import { createSessionCa, type SessionCa } from './session-ca.js';

/** A session's credentials on the proxy side: the placeholders commands see, and the interceptor that swaps them. */
export interface CredentialBroker extends EgressInterceptor {
  /** NAME to placeholder, for the commands' environment. */
  readonly placeholders: Readonly<Record<string, string>>;
  /** Writes the CA files the sandbox trusts into `dir`: the host's roots plus the session CA, and the CA alone. */
  writeCa(dir: string): { caBundle: string; caCert: string };
  /**
   * web_fetch's headers (lower-case names) with the placeholders for `url`'s host replaced, and the mask for what
   * comes back when that host is a credential's. A header may name a credential as `${credential.NAME}` too, which
   * stands for its placeholder.
   */
  substituteFetch(headers: Readonly<Record<string, string>>, url: URL): FetchHop;
}

/** The host's CA roots that the bundle for the sandbox starts from (Debian's ca-certificates). */
export const SYSTEM_CA_BUNDLE = '/etc/ssl/certs/ca-certificates.crt';

/** How a session's credential broker reaches and trusts the outside. */
export interface CredentialBrokerOptions {
  /**
   * The trust for TLS to credential hosts (`upstreamCa`, see runtime/net/upstream-trust.ts); never put in the
   * sandbox's bundle. @default Node's default trust
   */
  readonly upstreamTrust?: SecureContext;
  /** @default SYSTEM_CA_BUNDLE */
  readonly systemBundle?: string;
}

/**
 * Makes a placeholder per credential (random, so a command cannot guess another session's) and a session CA whose
 * leaf certificates are made only for hosts that some credential may be sent to.
 */
export function createCredentialBroker(sessionId: string, credentials: Credentials, options: CredentialBrokerOptions = {}): CredentialBroker {
  const { upstreamTrust, systemBundle = SYSTEM_CA_BUNDLE } = options;
  const placed: PlacedCredential[] = Object.entries(credentials).map(([name, c]) => ({ ...c, name, placeholder: `toolwarden-credential-${name}-${randomBytes(16).toString('hex')}` }));
  // Made on first use: a session whose credentials serve only web_fetch or plain HTTP never pays for the keys.
  let made: SessionCa | undefined;
  const ca = (): SessionCa => (made ??= createSessionCa(sessionId));
  const mask = createCredentialMask(placed);
  const placeholders = Object.fromEntries(placed.map((c) => [c.name, c.placeholder]));
  return {
    placeholders,
    covers: (host, port) => credentialsCover(placed, host, port),
    upstreamTrust,
    substitute: (headers, host, port) => {
      const out: OutgoingHttpHeaders = {};
      for (const [name, value] of Object.entries(headers)) {
        if (value === undefined) continue;
        out[name] = Array.isArray(value) ? value.map((v) => substituteHeader(v, name, placed, host, port)) : substituteHeader(value, name, placed, host, port);
      }
      return out;
    },
    responseMask: (host, port) => (credentialsCover(placed, host, port) ? mask : undefined),
    secureContext: (host) => ca().contextFor(host),
    substituteTarget: (target, host, port) => substituteQuery(target, placed, host, port),
    bodyFor: (host, port) => createBodySubstitution(placed, host, port),
    substituteFetch: (headers, url) => {
      const port = url.port === '' ? defaultPortOf(url.protocol) : Number(url.port);
      const covered = credentialsCover(placed, url.hostname, port);
      return {
        headers: Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, substituteHeader(resolveCredentialReferences(value, placeholders), name, placed, url.hostname, port)])),
        mask: covered ? mask : undefined,
        ...(covered && upstreamTrust !== undefined ? { secureContext: upstreamTrust } : {}),
      };
    },
    writeCa: (dir) => {
      const caCert = join(dir, 'ca.pem');
      const caBundle = join(dir, 'ca-bundle.pem');
      let roots = '';
      try {
        roots = readFileSync(systemBundle, 'utf8');
      } catch {
        // No system bundle: the sandbox trusts the session CA alone.
      }
      const { certPem } = ca();
      writeFileSync(caCert, certPem, { mode: 0o644 });
      writeFileSync(caBundle, `${roots}${roots.endsWith('\n') || roots === '' ? '' : '\n'}${certPem}`, { mode: 0o644 });
      return { caBundle, caCert };
    },
  };
}

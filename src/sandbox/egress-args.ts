import type { MountOp } from './system-mounts.js';
import type { EgressScope } from './types.js';

/** Where the session's proxy socket appears inside the sandbox. */
export const EGRESS_SOCKET = '/run/toolwarden/egress.sock';
/** The loopback port inside the sandbox where the forwarder listens (HTTP proxy and SOCKS5 on one port). */
export const EGRESS_PORT = 3128;
/** The CA bundle inside the sandbox (the host's roots plus the session CA), present when the session has credentials. */
export const EGRESS_CA_BUNDLE = '/run/toolwarden/ca-bundle.pem';
/** The session CA alone (for NODE_EXTRA_CA_CERTS, which adds to Node's own roots). */
export const EGRESS_CA_CERT = '/run/toolwarden/ca.pem';

/** What the egress adds to a command's layout: mounts, environment and the argv that starts the forwarder first. */
export interface EgressArgs {
  readonly mounts: readonly MountOp[];
  /** `--setenv NAME VALUE` triples. */
  readonly env: readonly string[];
  wrap(argv: readonly string[]): string[];
}

/**
 * The environment that points programs at the proxy: the usual proxy variables (curl reads only the lower-case
 * `http_proxy`), npm, yarn, pip and git settings, the credentials' placeholders, and the CA files when the
 * session has credentials. `NO_PROXY` is empty: nothing inside can be reached without the proxy anyway.
 */
export function egressEnv(egress: EgressScope): Record<string, string> {
  const http = `http://127.0.0.1:${EGRESS_PORT}`;
  const socks = `socks5h://127.0.0.1:${EGRESS_PORT}`;
  const ca: Record<string, string> = egress.caBundle === undefined ? {} : {
    SSL_CERT_FILE: EGRESS_CA_BUNDLE,
    REQUESTS_CA_BUNDLE: EGRESS_CA_BUNDLE,
    CURL_CA_BUNDLE: EGRESS_CA_BUNDLE,
    GIT_SSL_CAINFO: EGRESS_CA_BUNDLE,
    NODE_EXTRA_CA_CERTS: EGRESS_CA_CERT,
  };
  return {
    HTTP_PROXY: http, HTTPS_PROXY: http, http_proxy: http, https_proxy: http,
    ALL_PROXY: socks, all_proxy: socks,
    NO_PROXY: '', no_proxy: '',
    npm_config_proxy: http, npm_config_https_proxy: http, npm_config_noproxy: '',
    YARN_HTTP_PROXY: http, YARN_HTTPS_PROXY: http,
    PIP_PROXY: http,
    GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'http.proxy', GIT_CONFIG_VALUE_0: http,
    ...ca,
    ...egress.placeholders,
  };
}

/**
 * The layout additions of a command whose session has an egress proxy: the socket (and CA files) bound read-only
 * under /run/toolwarden, the environment of {@link egressEnv}, and an argv that starts socat on
 * 127.0.0.1:{@link EGRESS_PORT} (forwarding to the socket), waits until it listens, then execs the command.
 * Without socat the command still runs, with no network (fail closed).
 *
 * @example egressArgs({ socketPath: '/tmp/tw-x/egress.sock', socat: '/usr/bin/socat', placeholders: {} }).wrap(['sh', '-c', 'curl ...'])
 */
export function egressArgs(egress: EgressScope): EgressArgs {
  const mounts: MountOp[] = [{ dest: EGRESS_SOCKET, args: ['--ro-bind', egress.socketPath, EGRESS_SOCKET] }];
  if (egress.caBundle !== undefined) mounts.push({ dest: EGRESS_CA_BUNDLE, args: ['--ro-bind', egress.caBundle, EGRESS_CA_BUNDLE] });
  if (egress.caCert !== undefined) mounts.push({ dest: EGRESS_CA_CERT, args: ['--ro-bind', egress.caCert, EGRESS_CA_CERT] });
  const env = Object.entries(egressEnv(egress)).flatMap(([name, value]) => ['--setenv', name, value]);
  const listening = `0100007F:${EGRESS_PORT.toString(16).toUpperCase().padStart(4, '0')} 0A`;
  // socat forks a child per connection; the loop reads /proc/net/tcp (shell builtins only) until it listens.
  const script = [
    `${shellQuote(egress.socat)} TCP-LISTEN:${EGRESS_PORT},bind=127.0.0.1,fork,reuseaddr UNIX-CONNECT:${EGRESS_SOCKET} </dev/null >/dev/null 2>&1 &`,
    'n=0; while [ $n -lt 2000 ]; do up=; while read -r _ a _ s _; do [ "$a $s" = "' + listening + '" ] && up=1; done </proc/net/tcp; [ -n "$up" ] && break; n=$((n+1)); done',
    'exec "$@"',
  ].join('\n');
  return { mounts, env, wrap: (argv) => ['/bin/sh', '-c', script, 'toolwarden-egress', ...argv] };
}

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

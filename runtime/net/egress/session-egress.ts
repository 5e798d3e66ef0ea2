import { accessSync, constants, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import type { AuditEvent } from '../../../src/audit/audit-event.js';
import { allowsAllHosts, type NetPermission } from '../../../src/net/net-permission.js';
import type { EgressScope } from '../../../src/sandbox/types.js';
import type { HostLookup } from '../resolve-vetted.js';
import { startEgressProxy, type EgressInterceptor } from './egress-proxy.js';

/** A session's egress: what its commands' sandbox binds, and how to stop it. */
export interface SessionEgress {
  readonly scope: EgressScope;
  /** Stops the proxy and removes its private directory. */
  close(): Promise<void>;
}

/** What a session's egress is built from. */
export interface SessionEgressOptions {
  readonly sessionId: string;
  readonly user?: string;
  readonly net: NetPermission;
  readonly audit: (event: AuditEvent) => void;
  readonly commands?: () => readonly string[];
  readonly interceptor?: EgressInterceptor;
  /** Placeholders set in the commands' environment. */
  readonly placeholders?: Readonly<Record<string, string>>;
  /** Writes the CA files into the private directory and returns their paths (credentials only). */
  readonly writeCa?: (dir: string) => { caBundle: string; caCert: string };
  readonly lookup?: HostLookup;
  /** Connections open at once (`limits.egressMaxConnections`). @default 64 */
  readonly maxConnections?: number;
  /** Bytes moved in all (`limits.egressMaxBytes`), 0 unlimited. @default 0 */
  readonly maxBytes?: number;
  /** Where socat is looked for. @default process.env.PATH */
  readonly path?: string;
}

/** Whether a session's commands need an egress proxy: a host list, not `false`, empty or `'*'`. */
export function needsEgress(net: NetPermission): boolean {
  return net !== false && net.length > 0 && !allowsAllHosts(net);
}

/**
 * Starts a session's egress proxy on a socket in a fresh private directory (mode 0700) and returns the sandbox's
 * view of it. Without socat on PATH the commands keep an empty network namespace (fail closed) and `warning` says so.
 */
export async function startSessionEgress(options: SessionEgressOptions): Promise<SessionEgress & { warning: string | undefined }> {
  const dir = mkdtempSync(join(tmpdir(), 'toolwarden-egress-'));
  try {
    const socketPath = join(dir, 'egress.sock');
    const proxy = await startEgressProxy({ ...options, socketPath });
    const socat = findProgram('socat', options.path ?? process.env['PATH'] ?? '');
    const ca = options.writeCa?.(dir);
    return {
      scope: { socketPath, socat: socat ?? '/usr/bin/socat', placeholders: { ...options.placeholders }, ...ca },
      warning: socat === undefined ? 'egress: socat is not installed (apt-get install socat), so sandboxed commands cannot reach the listed hosts' : undefined,
      close: async () => {
        await proxy.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

function findProgram(name: string, path: string): string | undefined {
  for (const dir of path.split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this directory
    }
  }
  return undefined;
}

import path from 'node:path';
import type { Capability } from '../../src/capability/capability.js';
import type { NarrowDeps } from '../../src/capability/narrow.js';
import { ToolwardenError } from '../../src/errors.js';
import { DEFAULT_LIMITS } from '../../src/limits.js';
import { DEFAULT_BLOCKLIST } from '../../src/path-guard/blocklist.js';
import { narrowPermissions } from '../../src/policy/index.js';

/** A full capability over POSIX paths (nothing on disk), every field set, for pure capability tests. */
export function makeCapability(overrides: Partial<Capability> = {}): Capability {
  return {
    sid: 'parent',
    tools: ['read_file', 'write_file', 'grep', 'bash'],
    workspaceRoot: '/ws',
    readRoots: ['/ws/vendor', '/shared'],
    allowOutsideWorkspace: false,
    excludedPaths: ['.git', 'app/secret'],
    mcpServers: ['gh', 'docs:read_*'],
    limits: { ...DEFAULT_LIMITS, writeQuotaBytes: 1000 },
    permissions: [{ bash: { deny: ['git push*'] } }],
    sandbox: 'auto',
    net: ['example.com', 'api.test'],
    credentials: { GH_TOKEN: { value: 'ghp-real', hosts: ['api.test'] }, NPM_TOKEN: { value: 'npm-real', hosts: ['example.com'] } },
    env: ['PATH', 'NODE_*'],
    shellEncoding: 'utf-8',
    toolModules: ['file:///tools/a.js'],
    isolation: 'worker',
    user: 'alice',
    blockedPaths: DEFAULT_BLOCKLIST,
    ...overrides,
  };
}

/** Narrowing dependencies over POSIX paths: MCP entries narrow as plain subsets (the MCP rules have their own tests). */
export const POSIX_NARROW_DEPS: NarrowDeps = {
  flavour: path.posix,
  narrowMcp: (parent, requested) => {
    const extra = requested.find((entry) => !parent.includes(entry));
    if (extra !== undefined) throw new ToolwardenError('ESCALATION', `MCP entry '${extra}' is not allowed to the parent`);
    return [...requested];
  },
  narrowPermissions,
};

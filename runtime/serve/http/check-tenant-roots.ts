import { ToolwardenError } from '../../../src/errors.js';
import type { ServeConfig } from '../../../src/serve/serve-config.js';
import { canonicalDirectory } from '../../session/session-options.js';

/**
 * Checks every tenant's workspace and read roots before `serve --http` takes a request: each must exist, be a
 * directory, and not be `/` once made canonical (a symlink to `/` is `/`). A bad root refuses the start, naming
 * the tenant and the field, instead of failing (or serving too much) at the first session.
 * @throws ToolwardenError INVALID_OPTIONS naming `tenants.<user>.<field>`.
 */
export function assertTenantRootsServable(config: ServeConfig): void {
  for (const [user, tenant] of Object.entries(config.tenants)) {
    const roots: [string, string][] = [
      ...(tenant.workspaceRoot === undefined ? [] : [[`tenants.${user}.workspaceRoot`, tenant.workspaceRoot] as [string, string]]),
      ...(tenant.readRoots ?? []).map((root, i): [string, string] => [`tenants.${user}.readRoots[${i}]`, root]),
    ];
    for (const [field, root] of roots) {
      const canonical = canonicalDirectory(root, field);
      if (canonical === '/') {
        throw new ToolwardenError('INVALID_OPTIONS', `${field} '${root}' is the filesystem root (canonically '/'); give the tenant its own directory`);
      }
    }
  }
}

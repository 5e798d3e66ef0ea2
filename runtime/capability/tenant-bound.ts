import type { Capability } from '../../src/capability/capability.js';
import { assertFilesystemWithinTenant, bindSessionToTenant, type TenantConfig, type TenantFilesystemBound } from '../../src/tenants/index.js';
import { canonicalDirectory } from '../session/session-options.js';

/**
 * The tenant's filesystem bound with its roots realpath'ed now (a tenant root may itself be a symlink).
 * @throws ToolwardenError INVALID_OPTIONS naming `tenants.<user>.<field>` for a root that is missing or not a directory.
 */
export function canonicalTenantBound(tenant: TenantConfig, user: string | undefined): TenantFilesystemBound {
  const where = `tenants.${user ?? '(none)'}`;
  return {
    ...(tenant.workspaceRoot === undefined ? {} : { workspaceRoot: canonicalDirectory(tenant.workspaceRoot, `${where}.workspaceRoot`) }),
    ...(tenant.readRoots === undefined ? {} : { readRoots: tenant.readRoots.map((root, i) => canonicalDirectory(root, `${where}.readRoots[${i}]`)) }),
    ...(tenant.allowOutsideWorkspace === undefined ? {} : { allowOutsideWorkspace: tenant.allowOutsideWorkspace }),
  };
}

/**
 * Checks a built or verified capability against its user's tenant: tools, MCP entries, workspace, read roots and
 * outside access may only narrow the tenant's. Run on every open, so a token minted elsewhere (or before the
 * tenant shrank) is held to the tenant as it is now.
 * @throws ToolwardenError ESCALATION naming the field and the tenant's bound.
 */
export function assertCapabilityWithinTenant(capability: Capability, tenant: TenantConfig | undefined): void {
  if (tenant === undefined) return;
  bindSessionToTenant({ tools: [...capability.tools], mcpServers: [...capability.mcpServers] }, tenant, capability.user);
  assertFilesystemWithinTenant(capability, canonicalTenantBound(tenant, capability.user), capability.user);
}

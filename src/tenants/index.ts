export { assertFilesystemWithinTenant } from './bind-filesystem.js';
export type { FilesystemReach, TenantFilesystemBound } from './bind-filesystem.js';
export { bindSessionToTenant } from './bind-session.js';
export type { SessionRequest } from './bind-session.js';
export { createTenantContext, resolveTenant } from './tenant-config.js';
export type { TenantConfig, TenantContext, TenantsOption } from './tenant-config.js';
export { validateTenantConfig, validateTenants } from './validate-tenants.js';

export { buildBwrapArgs, DEFAULT_SANDBOX_HOME } from './bwrap-args.js';
export { buildSystemMounts, ETC_SECRET_DIRS, ETC_SECRET_FILES, SYSTEM_DIRS, type MountOp } from './system-mounts.js';
export { SANDBOX_MODES, type Sandbox, type SandboxMode, type SandboxScope, type SandboxSys } from './types.js';

export { buildBwrapArgs, DEFAULT_SANDBOX_HOME } from './bwrap-args.js';
export { buildProcMounts, PROC_MASKED_DIRS, PROC_MASKED_FILES, PROC_READ_ONLY, PROC_SANDBOX_INIT } from './proc-mounts.js';
export { buildSystemMounts, ETC_SECRET_DIRS, ETC_SECRET_FILES, SYSTEM_DIRS, type MountOp } from './system-mounts.js';
export { EGRESS_CA_BUNDLE, EGRESS_CA_CERT, EGRESS_PORT, EGRESS_SOCKET, egressArgs, egressEnv, type EgressArgs } from './egress-args.js';
export { SANDBOX_MODES, SECCOMP_FD, type EgressScope, type Sandbox, type SandboxFeatures, type SandboxLimits, type SandboxMode, type SandboxScope, type SandboxSys } from './types.js';

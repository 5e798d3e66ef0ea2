export type { CheckedPath, GuardFs, PathScope } from './types.js';
export { MAX_SYMLINK_HOPS, canonicalizePath } from './canonicalize.js';
export { isInside } from './segments.js';
export { checkBareRepositoryWrites, isResolvedPathReadable, isResolvedPathWritable, resolveForWrite, resolveReadablePath, resolveWorkspacePath } from './resolve.js';
export { DEFAULT_BLOCKLIST, describeBlockedEntry, findBlockedEntry, type BlockedEntry, type BlockedPathKind } from './blocklist.js';
export { PATH_RULES, PathRefusal, refusalText, restateRefusal } from './refusal.js';

import path from 'node:path';
import { resolveForWrite, resolveReadablePath, type GuardFs, type PathScope } from '../../src/path-guard/index.js';
import { createNodeGuardFs } from './guard-fs.js';
import type { IsAllowed } from './open-verified.js';

/** An {@link IsAllowed} for reads: the real path must pass {@link resolveReadablePath} unchanged. */
export function createReadCheck(scope: PathScope, fs: GuardFs = createNodeGuardFs()): IsAllowed {
  return (realPath) => passes(() => resolveReadablePath(realPath, scope, path, fs) === realPath);
}

/** An {@link IsAllowed} for writes: the real path must pass {@link resolveForWrite} unchanged. */
export function createWriteCheck(scope: PathScope, fs: GuardFs = createNodeGuardFs()): IsAllowed {
  return (realPath) => passes(() => resolveForWrite(realPath, scope, path, fs) === realPath);
}

function passes(check: () => boolean): boolean {
  try {
    return check();
  } catch {
    return false;
  }
}

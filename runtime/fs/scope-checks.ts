import path from 'node:path';
import { isResolvedPathReadable, isResolvedPathWritable, type PathScope } from '../../src/path-guard/index.js';
import type { IsAllowed } from './open-verified.js';

/** An {@link IsAllowed} for reads: the descriptor's real path must be readable under the scope's rules. */
export function createReadCheck(scope: PathScope): IsAllowed {
  return (realPath) => isResolvedPathReadable(realPath, scope, path);
}

/** An {@link IsAllowed} for writes: the descriptor's real path must be writable under the scope's rules. */
export function createWriteCheck(scope: PathScope): IsAllowed {
  return (realPath) => isResolvedPathWritable(realPath, scope, path);
}

import path from 'node:path';
import type { GuardFs } from '../../src/path-guard/index.js';
import { createNodeGuardFs } from '../fs/index.js';

const nodeGuardFs = createNodeGuardFs();
const DIRECTORY = Object.freeze({ isSymbolicLink: () => false, isDirectory: () => true });

/**
 * A GuardFs that skips the lstat of a session's canonical roots and their ancestors: they were realpath'ed when the
 * session opened. Skipping them is safe because every open is re-verified through the descriptor's real path
 * (/proc/self/fd on Linux), so a root swapped for a link afterwards is still refused at open. Off Linux the
 * descriptor check is weaker, so there every component is looked at.
 */
export function createSessionGuardFs(roots: readonly string[]): GuardFs {
  if (process.platform !== 'linux') return nodeGuardFs;
  const trusted = new Set<string>();
  for (const root of roots) {
    for (let dir = root; ; dir = path.dirname(dir)) {
      trusted.add(dir);
      if (path.dirname(dir) === dir) break;
    }
  }
  return {
    lstat: (p) => (trusted.has(p) ? DIRECTORY : nodeGuardFs.lstat(p)),
    readlink: (p) => nodeGuardFs.readlink(p),
  };
}

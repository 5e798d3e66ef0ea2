import path from 'node:path';
import { ToolwardenError } from '../../src/errors.js';

/**
 * The flag that turns Node's permission model on: `--permission` where it is stable (22.13+, 23.5+),
 * `--experimental-permission` before (Node 20 and early 22).
 */
export function permissionFlag(nodeVersion: string): '--permission' | '--experimental-permission' {
  const [major = 0, minor = 0] = nodeVersion.split('.').map(Number);
  const stable = major > 23 || (major === 23 && minor >= 5) || (major === 22 && minor >= 13);
  return stable ? '--permission' : '--experimental-permission';
}

/**
 * Node flags for a tool host process: the permission model on, read access to exactly `readPaths`, and nothing else
 * granted (no fs write, child processes, workers, addons or WASI; on Node 25+ no network either).
 * One `--allow-fs-read` per path: Node reads a comma in a single flag as a list separator on old releases and `*`
 * as a wildcard, so a path holding either is refused rather than passed on wider than it reads.
 */
export function permissionFlags(nodeVersion: string, readPaths: readonly string[]): string[] {
  for (const readPath of readPaths) {
    if (!path.isAbsolute(readPath) || /[,*]/.test(readPath)) {
      throw new ToolwardenError('INVALID_OPTIONS', `cannot grant read access to '${readPath}' in an isolated tool process: the path must be absolute and hold no ',' or '*'`);
    }
  }
  return [permissionFlag(nodeVersion), ...[...new Set(readPaths)].map((readPath) => `--allow-fs-read=${readPath}`)];
}

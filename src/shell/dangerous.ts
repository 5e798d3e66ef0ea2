import { posix } from 'node:path';
import type { ShellContext } from './types.js';

const SYSTEM_DIRECTORIES = ['/', '/home', '/etc', '/usr', '/var', '/bin', '/sbin', '/lib', '/lib64', '/boot', '/dev', '/opt', '/proc', '/root', '/srv', '/sys'];

/**
 * Why removing `target` (absolute) would be catastrophic, or null: a system directory, the home directory,
 * the workspace root, a read root, or a directory containing one of them.
 */
export function findDangerousTarget(target: string, ctx: ShellContext): string | null {
  const normalized = posix.resolve(target);
  if (SYSTEM_DIRECTORIES.includes(normalized)) return `${normalized} is a system directory`;
  const protectedRoots: [string, string][] = [
    [ctx.home, 'the home directory'],
    [ctx.workspaceRoot, 'the workspace root'],
    ...ctx.readRoots.map((root): [string, string] => [root, 'a read root']),
  ];
  for (const [root, label] of protectedRoots) {
    const normalizedRoot = posix.resolve(root);
    if (normalized === normalizedRoot) return `${normalized} is ${label}`;
    if (normalizedRoot.startsWith(`${normalized}/`)) return `${normalized} contains ${label} (${normalizedRoot})`;
  }
  return null;
}

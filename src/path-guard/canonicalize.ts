import type { PlatformPath } from 'node:path';
import { ToolwardenError } from '../errors.js';
import type { GuardFs } from './types.js';
import { isWin32, splitPath, stripDevicePrefix } from './segments.js';

/** Symlinks followed at most while canonicalizing one path (all links on the path together); one more is SYMLINK_LOOP. */
export const MAX_SYMLINK_HOPS = 8;

/**
 * Resolves every symlink in an absolute path hop by hop, like `realpath`, but with a hop limit and loop detection,
 * and without requiring the path to exist: missing components are kept as they are, so a new file's path
 * canonicalizes to its nearest existing ancestor's canonical path plus the missing tail. A dangling link
 * canonicalizes to where it points. Relative link targets resolve against the link's directory; `..` after a link
 * climbs from the link's target, as the kernel does.
 * Throws SYMLINK_LOOP when a link chain loops or more than {@link MAX_SYMLINK_HOPS} links are followed,
 * INVALID_ARGS when `absPath` (or a link target) is not usable as an absolute path. `onLink` is told each link
 * followed, where it is (the guard uses it to tell a failure outside the roots from one inside).
 */
export function canonicalizePath(absPath: string, flavour: PlatformPath, fs: GuardFs, onLink?: (link: string) => void): string {
  const start = splitAbsolute(absPath, flavour);
  let current = start.root;
  const pending = start.segments;
  let hops = 0;
  // Links met since the last real component: a repeat within one chain is a loop. Longer cycles through real
  // directories are caught by the hop limit instead.
  let chain: string[] = [];
  for (let segment = pending.shift(); segment !== undefined; segment = pending.shift()) {
    if (segment === '..') {
      current = flavour.dirname(current);
      continue;
    }
    const next = flavour.join(current, segment);
    const stat = fs.lstat(next);
    if (!stat?.isSymbolicLink()) {
      current = next;
      chain = [];
      continue;
    }
    onLink?.(next);
    if (chain.includes(next)) {
      throw new ToolwardenError('SYMLINK_LOOP', `path ${absPath}: symlink ${next} loops back to itself (${[...chain, next].join(' -> ')})`);
    }
    hops += 1;
    if (hops > MAX_SYMLINK_HOPS) {
      throw new ToolwardenError('SYMLINK_LOOP', `path ${absPath}: more than ${MAX_SYMLINK_HOPS} symlinks to follow (at ${next})`);
    }
    chain.push(next);
    const target = readTarget(next, absPath, flavour, fs);
    if (flavour.isAbsolute(target)) {
      const split = splitPath(target, flavour);
      // A win32 target rooted without a drive (`\x`) lives on the drive of the link itself.
      current = isWin32(flavour) && /^[\\/]$/.test(split.root) ? splitPath(current, flavour).root : toBackslashes(split.root, flavour);
      pending.unshift(...split.segments);
    } else {
      pending.unshift(...splitPath(target, flavour).segments);
    }
  }
  return current;
}

function splitAbsolute(p: string, flavour: PlatformPath): { root: string; segments: string[] } {
  const stripped = stripDevicePrefix(p, flavour);
  const split = stripped === undefined ? undefined : splitPath(stripped, flavour);
  if (split === undefined || !flavour.isAbsolute(split.root) || (isWin32(flavour) && /^[\\/]$/.test(split.root))) {
    throw new ToolwardenError('INVALID_ARGS', `path ${p} is not an absolute path with a root the guard supports`);
  }
  return { root: toBackslashes(split.root, flavour), segments: split.segments };
}

function readTarget(link: string, absPath: string, flavour: PlatformPath, fs: GuardFs): string {
  const raw = fs.readlink(link);
  const target = stripDevicePrefix(raw, flavour);
  if (target === undefined || (isWin32(flavour) && /^[a-zA-Z]:(?![\\/])/.test(target))) {
    throw new ToolwardenError('INVALID_ARGS', `path ${absPath}: symlink ${link} has a target ${JSON.stringify(raw)} the guard does not support`);
  }
  return target;
}

function toBackslashes(root: string, flavour: PlatformPath): string {
  return isWin32(flavour) ? root.replace(/\//g, '\\') : root;
}

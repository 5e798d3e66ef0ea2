import { ToolwardenError } from '../errors.js';
import type { BlockedEntry } from '../path-guard/blocklist.js';
import { blockedEntryName, parseBlockedPathsOption, sameSegments } from '../path-guard/blocklist-option.js';
import type { Capability } from './capability.js';
import { effectiveBlocklist } from './effective-blocklist.js';

/**
 * A child's blocklist: every entry of the parent's plus the ones it adds. Removing an entry the parent has is
 * ESCALATION; a name that is not on the parent's list is INVALID_OPTIONS. When the child is rooted below its
 * parent, `nested` entries (a nested repository's `.git/config`) apply at the child's root too: there the
 * repository is nested for the parent.
 */
export function narrowBlocklist(parent: Capability, requested: unknown, rootChanged: boolean, escalate: (what: string) => never): BlockedEntry[] {
  const base = effectiveBlocklist(parent);
  const { remove, add } = requested === undefined ? { remove: [], add: [] } : parseBlockedPathsOption(requested, 'attenuate blockedPaths');
  const names = new Set(base.map(blockedEntryName));
  for (const name of remove) {
    if (names.has(name)) escalate(`blockedPaths.remove '${name}': the parent blocks it`);
    throw new ToolwardenError('INVALID_OPTIONS', `attenuate blockedPaths.remove names '${name}', which is not on the parent's blocklist`);
  }
  const inherited = base.map((entry): BlockedEntry => (rootChanged && entry.depth === 'nested' ? { ...entry, depth: 'any' } : entry));
  return [...inherited, ...add.filter((entry) => !inherited.some((k) => k.depth === 'any' && sameSegments(k, entry)))];
}

import { DEFAULT_BLOCKLIST, type BlockedEntry } from '../path-guard/blocklist.js';
import type { Capability } from './capability.js';

/**
 * The blocklist a capability's file tools, static shell check and OS sandbox apply: its own (`DEFAULT_BLOCKLIST`
 * edited by the runtime's and the session's `blockedPaths`, grown by every attenuation), or `DEFAULT_BLOCKLIST`
 * for a capability from before the option.
 * @example findBlockedEntry(p, capability.workspaceRoot, path, effectiveBlocklist(capability))
 */
export function effectiveBlocklist(capability: Pick<Capability, 'blockedPaths'>): readonly BlockedEntry[] {
  return capability.blockedPaths ?? DEFAULT_BLOCKLIST;
}

import { ToolwardenError } from '../errors.js';
import { DEFAULT_BLOCKLIST, type BlockedEntry } from '../path-guard/blocklist.js';
import { blockedEntryName } from '../path-guard/blocklist-option.js';
import type { Capability } from './capability.js';

// A token travels in an HTTP Authorization header (16 KiB at most by Node's default): the default blocklist written
// out entry by entry, with its reasons, would take most of it. A default entry travels as its name instead.
const DEFAULTS_BY_NAME: ReadonlyMap<string, BlockedEntry> = new Map(DEFAULT_BLOCKLIST.map((entry) => [blockedEntryName(entry), entry]));

/** A capability's blocklist as a token carries it: each entry equal to a default one by its name, others whole. */
export function packTokenBlocklist(capability: Capability): Capability {
  if (capability.blockedPaths === undefined) return capability;
  const packed = capability.blockedPaths.map((entry): BlockedEntry | string => {
    const name = blockedEntryName(entry);
    const known = DEFAULTS_BY_NAME.get(name);
    return known !== undefined && sameEntry(known, entry) ? name : entry;
  });
  return { ...capability, blockedPaths: packed as unknown as BlockedEntry[] };
}

/**
 * The capability a verified token carries, its blocklist names replaced by this runtime's default entries.
 * @throws ToolwardenError TOKEN_INVALID for a name this runtime's default list does not have (a newer signer's)
 */
export function unpackTokenBlocklist(capability: Capability): Capability {
  const list: unknown = capability.blockedPaths;
  if (!Array.isArray(list)) return capability;
  const entries = list.map((item: unknown): unknown => {
    if (typeof item !== 'string') return item;
    const known = DEFAULTS_BY_NAME.get(item);
    if (known === undefined) throw new ToolwardenError('TOKEN_INVALID', `token blocks '${item}', which is not on this runtime's default blocklist (signed by a newer runtime?)`);
    return known;
  });
  return { ...capability, blockedPaths: entries as BlockedEntry[] };
}

function sameEntry(a: BlockedEntry, b: BlockedEntry): boolean {
  return a.depth === b.depth && a.only === b.only && a.stub === b.stub && a.why === b.why
    && a.segments.length === b.segments.length && a.segments.every((s, i) => s === b.segments[i]);
}

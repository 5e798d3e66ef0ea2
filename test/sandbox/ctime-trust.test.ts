import { describe, expect, it } from 'vitest';
import { CTIME_TRUST_MARGIN_NS, mayTrustUnchangedCtime, WHOLE_SECOND_CTIME_TRUST_MARGIN_NS } from '../../src/sandbox/ctime-trust.js';

const EXT4 = 0xef53;
const TMPFS = 0x01021994;
const NFS = 0x6969;
const FUSE = 0x65735546;
const NOW = 1_800_000_000_123_456_789n;
const SECOND = 1_000_000_000n;

describe('mayTrustUnchangedCtime', () => {
  it.each<[string, bigint, number, boolean]>([
    ['an old ctime on ext4', NOW - 10n * CTIME_TRUST_MARGIN_NS, EXT4, true],
    ['an old ctime on tmpfs', NOW - CTIME_TRUST_MARGIN_NS - 1n, TMPFS, true],
    ['a ctime exactly the margin old', NOW - CTIME_TRUST_MARGIN_NS, EXT4, false],
    ['a ctime a moment old (a change in the same clock tick could keep it)', NOW - 1_000_000n, EXT4, false],
    ['a ctime in the future (a clock stepped back)', NOW + 1_000_000_000n, EXT4, false],
    ['an old ctime on NFS (the server clock)', NOW - 10n * CTIME_TRUST_MARGIN_NS, NFS, false],
    ['an old ctime on FUSE (the daemon says)', NOW - 10n * CTIME_TRUST_MARGIN_NS, FUSE, false],
    ['an unknown filesystem', NOW - 10n * CTIME_TRUST_MARGIN_NS, -1, false],
    // A ctime of whole seconds may come from an inode that keeps only seconds: a change in the same second keeps it.
    ['a whole-second ctime a second old', (NOW / SECOND) * SECOND - SECOND, EXT4, false],
    ['a whole-second ctime past the whole-second margin', (NOW / SECOND) * SECOND - WHOLE_SECOND_CTIME_TRUST_MARGIN_NS - SECOND, EXT4, true],
  ])('%s: %s', (_name, ctimeNs, fsType, expected) => {
    expect(mayTrustUnchangedCtime(ctimeNs, NOW, fsType)).toBe(expected);
  });
});

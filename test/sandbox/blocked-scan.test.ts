import { mkdirSync, readFileSync, rmdirSync, statSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_BLOCKLIST } from '../../src/path-guard/blocklist.js';
import { diffBlockedSnapshots, EMPTY_DIR_SIGNATURE } from '../../src/sandbox/blocked-changes.js';
import { CTIME_TRUST_MARGIN_NS } from '../../src/sandbox/ctime-trust.js';
import { scanBlocked } from '../../runtime/sandbox/blocked-scan.js';
import { makeTempTree, type TempTree } from '../helpers/temp-workspace.js';

const scan = (tree: TempTree) => scanBlocked(tree.root, DEFAULT_BLOCKLIST, []);
const stateAt = (tree: TempTree, path: string): string | undefined => {
  const signature = scan(tree).paths.get(tree.at(path));
  return signature?.slice(signature.indexOf('#') + 1);
};

// An empty blocked directory read with an old ctime is remembered; every way a command could change it since must
// still be seen. The clock is moved ahead so the fresh directories look old enough to be trusted.
describe('scanBlocked: an empty directory remembered by its ctime', () => {
  let tree: TempTree;
  beforeEach(() => {
    tree = makeTempTree('tw-scan-memo', { 'src/a.ts': 'x' });
    mkdirSync(tree.at('.ssh'));
    mkdirSync(tree.at('.aws'));
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + Number(CTIME_TRUST_MARGIN_NS / 1_000_000n) * 5);
    expect(stateAt(tree, '.ssh')).toBe(EMPTY_DIR_SIGNATURE); // read, and remembered
  });
  afterEach(() => {
    vi.useRealTimers();
    tree.cleanup();
  });

  it.each<[string, (t: TempTree) => void]>([
    ['a file created inside', (t) => writeFileSync(t.at('.ssh/authorized_keys'), 'k')],
    ['a directory created inside', (t) => mkdirSync(t.at('.ssh/keys'))],
    ['a file created inside, with the directory times set back', (t) => {
      const before = statSync(t.at('.ssh'));
      writeFileSync(t.at('.ssh/authorized_keys'), 'k');
      utimesSync(t.at('.ssh'), before.atime, before.mtime);
    }],
  ])('attack: %s is seen', (_name, change) => {
    const before = scan(tree);
    change(tree);
    const after = scan(tree);
    expect(after.paths.get(tree.at('.ssh'))).not.toBe(before.paths.get(tree.at('.ssh')));
    expect(diffBlockedSnapshots(before, after)).toEqual([{ path: tree.at('.ssh'), change: 'changed' }]);
  });

  it('attack: the directory replaced by one holding a file is seen (the inode may be reused at once)', () => {
    const before = scan(tree);
    rmdirSync(tree.at('.ssh'));
    mkdirSync(tree.at('.ssh'));
    writeFileSync(tree.at('.ssh/authorized_keys'), 'k');
    expect(diffBlockedSnapshots(before, scan(tree))).toEqual([{ path: tree.at('.ssh'), change: expect.stringMatching(/^(created|changed)$/) }]);
  });

  it('a file created and removed again leaves it empty, and it is read again (its ctime moved)', () => {
    writeFileSync(tree.at('.ssh/x'), 'k');
    expect(stateAt(tree, '.ssh')).not.toBe(EMPTY_DIR_SIGNATURE);
    unlinkSync(tree.at('.ssh/x'));
    expect(stateAt(tree, '.ssh')).toBe(EMPTY_DIR_SIGNATURE);
  });

  it('near miss: an untouched directory stays empty, scan after scan', () => {
    const first = scan(tree);
    for (let i = 0; i < 3; i++) expect(diffBlockedSnapshots(first, scan(tree))).toEqual([]);
  });
});

describe('scanBlocked signatures', () => {
  let tree: TempTree;
  beforeEach(() => {
    tree = makeTempTree('tw-scan-sig', { 'deep/.ssh/id': 'key-1', '.envrc': 'export A=1' });
  });
  afterEach(() => tree.cleanup());

  it.each(['deep/.ssh/id', '.envrc'])('attack: %s edited in place at the same size with its mtime set back is seen', (path) => {
    // Whole seconds, so utimes can put back exactly the same mtime afterwards.
    utimesSync(tree.at(path), 1_700_000_000, 1_700_000_000);
    const before = scan(tree);
    const text = readFileSync(tree.at(path), 'utf8');
    writeFileSync(tree.at(path), text.replace(/1/, '2'));
    utimesSync(tree.at(path), 1_700_000_000, 1_700_000_000);
    expect(statSync(tree.at(path), { bigint: true }).mtimeNs).toBe(1_700_000_000_000_000_000n);
    const blocked = path === '.envrc' ? tree.at('.envrc') : tree.at('deep/.ssh');
    expect(diffBlockedSnapshots(before, scan(tree))).toEqual([{ path: blocked, change: 'changed' }]);
  });

  it('near miss: reading a blocked file changes nothing', () => {
    const before = scan(tree);
    readFileSync(tree.at('deep/.ssh/id'));
    readFileSync(tree.at('.envrc'));
    expect(diffBlockedSnapshots(before, scan(tree))).toEqual([]);
  });
});

describe('scanBlocked: an embedded bare repository', () => {
  let tree: TempTree;
  beforeEach(() => {
    tree = makeTempTree('tw-scan-bare', { 'src/a.ts': 'x', 'app/refs/.keep': '', 'app/HEAD': 'x' });
  });
  afterEach(() => tree.cleanup());

  it('attack: config and hooks written into a directory with HEAD, objects and refs are seen as created', () => {
    const before = scan(tree);
    mkdirSync(tree.at('app/objects'));
    writeFileSync(tree.at('app/config'), '[core] fsmonitor = evil');
    mkdirSync(tree.at('app/hooks'));
    expect(diffBlockedSnapshots(before, scan(tree))).toEqual([
      { path: tree.at('app/config'), change: 'created' },
      { path: tree.at('app/hooks'), change: 'created' },
    ]);
  });

  it('attack: a commondir beside HEAD (git takes objects, refs and config from where it points) is seen as created', () => {
    const before = scan(tree);
    writeFileSync(tree.at('app/commondir'), '../other');
    expect(diffBlockedSnapshots(before, scan(tree))).toEqual([{ path: tree.at('app/commondir'), change: 'created' }]);
  });

  it('near miss: the same files without objects (no repository to git) are not blocked', () => {
    const before = scan(tree);
    writeFileSync(tree.at('app/config'), 'debug = true');
    expect(diffBlockedSnapshots(before, scan(tree))).toEqual([]);
  });

  // Below a .git is not the .git itself (attacker pass), nor is a .GIT on a case-sensitive disk.
  it.each(['y/.git/inner', 'x/.GIT/inner', '.git/objects'])('attack: a repository made at %s is seen', (dir) => {
    const before = scan(tree);
    mkdirSync(tree.at(`${dir}/objects`), { recursive: true });
    mkdirSync(tree.at(`${dir}/refs`));
    writeFileSync(tree.at(`${dir}/HEAD`), 'ref: refs/heads/main');
    writeFileSync(tree.at(`${dir}/config`), '[core] fsmonitor = evil');
    expect(diffBlockedSnapshots(before, scan(tree))).toEqual([{ path: tree.at(`${dir}/config`), change: 'created' }]);
  });

  it('attack: at the root of a session rooted below its host (the list blocks .git/config there), the root is looked at too', () => {
    const childList = DEFAULT_BLOCKLIST.map((entry) => (entry.depth === 'nested' ? { ...entry, depth: 'any' as const } : entry));
    const before = scanBlocked(tree.at('app'), childList, []);
    mkdirSync(tree.at('app/objects'));
    writeFileSync(tree.at('app/config'), '[core] fsmonitor = evil');
    expect(diffBlockedSnapshots(before, scanBlocked(tree.at('app'), childList, []))).toEqual([{ path: tree.at('app/config'), change: 'created' }]);
    // A session of the host's rooted there leaves its own root alone, like its own .git/config.
    expect([...scanBlocked(tree.at('app'), DEFAULT_BLOCKLIST, []).paths.keys()]).not.toContain(tree.at('app/config'));
  });

  it("near miss: the top repository's submodule repository under .git/modules is the host's", () => {
    for (const sub of ['objects', 'refs']) mkdirSync(tree.at(`.git/modules/lib/${sub}`), { recursive: true });
    writeFileSync(tree.at('.git/modules/lib/HEAD'), 'ref: refs/heads/main');
    writeFileSync(tree.at('.git/modules/lib/config'), '[core]');
    expect([...scan(tree).paths.keys()].filter((p) => p.includes('.git/modules/lib/config'))).toEqual([]);
  });

  it('near miss: a nested .git directory is left to the name-based list (its HEAD, objects and refs are expected)', () => {
    mkdirSync(tree.at('sub/.git/objects'), { recursive: true });
    mkdirSync(tree.at('sub/.git/refs'));
    writeFileSync(tree.at('sub/.git/HEAD'), 'ref: refs/heads/main');
    const found = [...scan(tree).paths.keys()].filter((p) => p.includes('sub/.git'));
    expect(found).toEqual([]);
  });
});

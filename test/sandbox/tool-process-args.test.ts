import { describe, expect, it } from 'vitest';
import { buildBwrapArgs } from '../../src/sandbox/bwrap-args.js';
import { buildConfinementArgs, buildKernelViewMounts } from '../../src/sandbox/confinement.js';
import { buildToolProcessBwrapArgs } from '../../src/sandbox/tool-process-args.js';
import type { SandboxFeatures, SandboxSys } from '../../src/sandbox/types.js';

const LINKS: Record<string, string> = { '/bin': 'usr/bin', '/repo/node_modules': '/shared/node_modules', '/tmp/mods/node_modules/lib': '/shared/lib' };
const EXISTING = new Set(['/usr', '/etc', '/etc/shadow', '/proc/sys', '/proc/kcore', '/repo', '/repo/dist', '/repo/node_modules', '/repo/package.json', '/shared/node_modules/zod', '/tmp/mods', '/tmp/mods/node_modules/lib', '/shared/lib', '/usr/bin/node']);
const sys: SandboxSys = { existing: (p) => EXISTING.has(p), readLink: (p) => LINKS[p] };
const FEATURES: SandboxFeatures = { userNamespace: true, seccomp: true };
const layout = {
  readPaths: ['/repo/dist', '/repo/package.json', '/repo/node_modules', '/shared/node_modules/zod', '/tmp/mods', '/tmp/mods/node_modules/lib', '/shared/lib', '/usr/bin/node', '/gone'],
  tmpBytes: 1024,
};

/** The [flag, ...operands] groups before `--`. */
function groups(args: string[]): string[] {
  return args.slice(0, args.indexOf('--')).join(' ').split(/ (?=--)/);
}

describe('buildToolProcessBwrapArgs', () => {
  const args = buildToolProcessBwrapArgs(layout, sys, FEATURES);
  const g = groups(args);

  it.each([
    ['a private /tmp with its size cap', '--size 1024 --tmpfs /tmp'],
    ['a fresh /proc', '--proc /proc'],
    ['/proc/sys read-only', '--ro-bind /proc/sys /proc/sys'],
    ['/proc/kcore masked', '--ro-bind /dev/null /proc/kcore'],
    ['a minimal /dev', '--dev /dev'],
    ['/usr read-only', '--ro-bind /usr /usr'],
    ['/etc/shadow masked', '--ro-bind /dev/null /etc/shadow'],
    ['its build read-only', '--ro-bind /repo/dist /repo/dist'],
    ['a module directory under /tmp read-only, over the private /tmp', '--ro-bind /tmp/mods /tmp/mods'],
    ['a linked node_modules kept as its link', '--symlink /shared/node_modules /repo/node_modules'],
    ['the root read-only', '--remount-ro /'],
    ['a user namespace without nested ones', '--unshare-user --disable-userns'],
    ['no network', '--unshare-net'],
    ['no capabilities', '--cap-drop ALL'],
    ['the seccomp filter', '--seccomp 3'],
    ['death with the runtime', '--die-with-parent'],
  ])('has %s', (_name, group) => {
    expect(` ${args.slice(0, args.indexOf('--')).join(' ')} `).toContain(` ${group} `);
  });

  it.each([
    ['/sys', '/sys'],
    ['a missing read path', '/gone'],
    ['a read path under /usr (already bound)', '/usr/bin/node'],
    ['a link inside a bound directory (the bind holds it)', '/tmp/mods/node_modules/lib'],
    ['the host root bound whole', '/'],
  ])('leaves out %s', (_name, path) => {
    const before = args.slice(0, args.indexOf('--'));
    expect(before.filter((arg, i) => arg === path && before[i - 1] !== '--remount-ro')).toEqual([]);
  });

  it('binds /tmp before a module directory under it, so the private /tmp does not hide it', () => {
    expect(g.indexOf('--tmpfs /tmp')).toBeGreaterThan(-1);
    expect(g.indexOf('--tmpfs /tmp')).toBeLessThan(g.indexOf('--ro-bind /tmp/mods /tmp/mods'));
  });

  it('ends with -- for the node command', () => {
    expect(args.at(-1)).toBe('--');
  });

  it('uses the same kernel view and confinement pieces as commands (one source)', () => {
    const command = buildBwrapArgs({ workspaceRoot: '/ws', readRoots: [], blockedInWorkspace: [], net: false, limits: { tmpBytes: 1024, maxProcesses: 1, memoryBytes: 1, cpuSeconds: 1 } }, '/ws', ['true'], sys, FEATURES).join(' ');
    const joined = args.join(' ');
    for (const piece of [...buildKernelViewMounts(sys, 1024).map((op) => op.args.join(' ')), buildConfinementArgs(FEATURES, false).join(' ')]) {
      expect(command).toContain(piece);
      expect(joined).toContain(piece);
    }
  });

  it('without user namespaces or a filter, leaves those flags out and keeps the rest', () => {
    const plain = buildToolProcessBwrapArgs(layout, sys);
    expect(plain).not.toContain('--unshare-user');
    expect(plain).not.toContain('--seccomp');
    expect(groups(plain)).toContain('--ro-bind /proc/sys /proc/sys');
    expect(plain).toContain('--cap-drop');
  });
});

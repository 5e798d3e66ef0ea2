import { describe, expect, it } from 'vitest';
import { buildBwrapArgs } from '../../src/sandbox/bwrap-args.js';
import type { SandboxScope, SandboxSys } from '../../src/sandbox/types.js';

const LINKS: Record<string, string> = { '/bin': 'usr/bin', '/lib': 'usr/lib', '/etc/resolv.conf': '../run/systemd/resolve/stub-resolv.conf' };
const EXISTING = new Set(['/usr', '/lib64', '/etc', '/etc/shadow', '/etc/ssl/private', '/ws', '/ws/.git', '/ws/.git/config', '/data', '/run/systemd/resolve']);
const sys: SandboxSys = { existing: (p) => EXISTING.has(p), readLink: (p) => LINKS[p] };
const scope: SandboxScope = { workspaceRoot: '/ws', readRoots: ['/data', '/gone'], blockedInWorkspace: ['/ws/.git/config', '/ws/.git/hooks', '/ws/.env'], net: false };

/** The [flag, ...operands] groups before `--`, as strings, to assert on order without caring about spacing. */
function groups(args: string[]): string[] {
  const text = args.slice(0, args.indexOf('--')).join(' ');
  return text.split(/ (?=--)/);
}

describe('buildBwrapArgs layout', () => {
  const args = buildBwrapArgs(scope, '/ws', ['sh', '-c', 'ls'], sys);
  const g = groups(args);

  it.each([
    ['a private /tmp', '--tmpfs /tmp'],
    ['a fresh /proc', '--proc /proc'],
    ['a minimal /dev', '--dev /dev'],
    ['/usr read-only', '--ro-bind /usr /usr'],
    ['/bin kept as a symlink into /usr', '--symlink usr/bin /bin'],
    ['/lib64 read-only', '--ro-bind /lib64 /lib64'],
    ['/etc read-only', '--ro-bind /etc /etc'],
    ['/etc/shadow masked', '--ro-bind /dev/null /etc/shadow'],
    ['/etc/ssl/private emptied', '--tmpfs /etc/ssl/private'],
    ['read roots read-only', '--ro-bind /data /data'],
    ['the workspace read-write', '--bind /ws /ws'],
    ['a blocked file read-only', '--ro-bind /ws/.git/config /ws/.git/config'],
    ['a missing .git/hooks under .git as a read-only tmpfs', '--tmpfs /ws/.git/hooks'],
    ['the root read-only', '--remount-ro /'],
    ['no network without permission', '--unshare-net'],
    ['a private pid namespace', '--unshare-pid'],
    ['no capabilities, even for root', '--cap-drop ALL'],
    ['death with the parent', '--die-with-parent'],
    ['a new session (no TIOCSTI)', '--new-session'],
    ['HOME in the private /tmp', '--setenv HOME /tmp/home'],
    ['the cwd', '--chdir /ws'],
  ])('has %s', (_name, group) => {
    expect(g).toContain(group);
  });

  it.each([
    ['a missing read root', '/gone'],
    ['a missing blocked path that is not .git/hooks', '/ws/.env'],
    ['/sbin, which does not exist', '/sbin'],
    ['the resolver dir, without network', '/run/systemd/resolve'],
  ])('leaves out %s', (_name, path) => {
    expect(args.slice(0, args.indexOf('--'))).not.toContain(path);
  });

  it.each([
    ['--tmpfs /tmp', '--bind /ws /ws'],
    ['--bind /ws /ws', '--ro-bind /ws/.git/config /ws/.git/config'],
    ['--bind /ws /ws', '--tmpfs /ws/.git/hooks'],
    ['--ro-bind /etc /etc', '--ro-bind /dev/null /etc/shadow'],
    ['--tmpfs /ws/.git/hooks', '--remount-ro /'],
  ])('puts the parent mount %s before the child %s', (parent, child) => {
    const index = (prefix: string): number => g.findIndex((group) => group === prefix || group.startsWith(`${prefix} `));
    expect(index(parent)).toBeGreaterThanOrEqual(0);
    expect(index(parent)).toBeLessThan(index(child));
  });

  it('ends with the command after --', () => {
    expect(args.slice(args.indexOf('--'))).toEqual(['--', 'sh', '-c', 'ls']);
  });

  it("shares the network and binds the resolver only with net ['*']", () => {
    const shared = buildBwrapArgs({ ...scope, net: ['*'] }, '/ws', ['true'], sys);
    expect(shared).not.toContain('--unshare-net');
    expect(groups(shared)).toContain('--ro-bind /run/systemd/resolve /run/systemd/resolve');
    expect(buildBwrapArgs({ ...scope, net: ['example.com'] }, '/ws', ['true'], sys)).toContain('--unshare-net');
  });

  it('puts a read root that contains the workspace before the workspace', () => {
    const outer = buildBwrapArgs({ ...scope, readRoots: ['/'], workspaceRoot: '/ws' }, '/ws', ['true'], { ...sys, existing: (p) => p === '/' || sys.existing(p) });
    expect(outer.indexOf('/')).toBeLessThan(outer.indexOf('/ws'));
  });

  it('uses a private tmpfs for a HOME outside the mounted roots and none for one inside', () => {
    expect(groups(buildBwrapArgs({ ...scope, home: '/home/agent' }, '/ws', ['true'], sys))).toContain('--tmpfs /home/agent');
    expect(groups(buildBwrapArgs({ ...scope, home: '/ws/.home' }, '/ws', ['true'], sys))).not.toContain('--tmpfs /ws/.home');
  });
});

describe('buildBwrapArgs refusals', () => {
  it.each<[string, Partial<SandboxScope>, string, string]>([
    ['the root as workspace', { workspaceRoot: '/' }, '/', 'INVALID_OPTIONS'],
    ['a relative workspace', { workspaceRoot: 'ws' }, '/ws', 'INVALID_OPTIONS'],
    ['a workspace with ..', { workspaceRoot: '/ws/../etc' }, '/ws', 'INVALID_OPTIONS'],
    ['a read root with a trailing slash', { readRoots: ['/data/'] }, '/ws', 'INVALID_OPTIONS'],
    ['a blocked path outside the workspace', { blockedInWorkspace: ['/ws-evil/x'] }, '/ws', 'INVALID_OPTIONS'],
    ['the workspace itself as blocked', { blockedInWorkspace: ['/ws'] }, '/ws', 'INVALID_OPTIONS'],
    ['a cwd outside every root', {}, '/etc', 'INVALID_ARGS'],
    ['a cwd in a prefix twin', {}, '/ws2', 'INVALID_ARGS'],
    ['a cwd in a missing read root', {}, '/gone', 'INVALID_ARGS'],
  ])('refuses %s', (_name, override, cwd, code) => {
    expect(() => buildBwrapArgs({ ...scope, ...override }, cwd, ['true'], sys)).toThrowError(expect.objectContaining({ code }));
  });

  it('refuses an empty argv', () => {
    expect(() => buildBwrapArgs(scope, '/ws', [], sys)).toThrowError(expect.objectContaining({ code: 'INVALID_ARGS' }));
  });
});

describe('buildBwrapArgs hardening and limits', () => {
  const procSys: SandboxSys = { ...sys, existing: (p) => p.startsWith('/proc/') || sys.existing(p) };
  const limits = { tmpBytes: 1024, maxProcesses: 64, memoryBytes: 4096, cpuSeconds: 7 };
  const hardened = buildBwrapArgs({ ...scope, limits, home: '/home/agent' }, '/ws', ['sh', '-c', 'ls'], procSys, { userNamespace: true, seccomp: true, prlimit: '/usr/bin/prlimit' });
  const g = groups(hardened);

  it.each([
    ['/proc/sys read-only', '--ro-bind /proc/sys /proc/sys'],
    ['/proc/sysrq-trigger read-only', '--ro-bind /proc/sysrq-trigger /proc/sysrq-trigger'],
    ['/proc/kcore masked', '--ro-bind /dev/null /proc/kcore'],
    ['/proc/kallsyms masked', '--ro-bind /dev/null /proc/kallsyms'],
    ['/proc/acpi emptied', '--tmpfs /proc/acpi'],
    ['a user namespace', '--unshare-user'],
    ['no nested user namespaces', '--disable-userns'],
    ['the seccomp filter on fd 3', '--seccomp 3'],
  ])('has %s', (_name, group) => {
    expect(g).toContain(group);
  });

  it.each(['/tmp', '/home/agent'])('caps the size of the %s tmpfs', (dest) => {
    expect(g[g.indexOf(`--tmpfs ${dest}`) - 1]).toBe('--size 1024');
  });

  it('puts /proc before the knobs bound over it', () => {
    expect(g.indexOf('--proc /proc')).toBeLessThan(g.indexOf('--ro-bind /proc/sys /proc/sys'));
  });

  it('runs the command under prlimit with every rlimit', () => {
    expect(hardened.slice(hardened.indexOf('--'))).toEqual(['--', '/usr/bin/prlimit', '--nproc=64', '--data=4096', '--cpu=7:8', '--msgqueue=0', '--', 'sh', '-c', 'ls']);
  });

  it('leaves out what the features do not provide', () => {
    const plain = buildBwrapArgs({ ...scope, limits }, '/ws', ['true'], sys);
    expect(plain).not.toContain('--unshare-user');
    expect(plain).not.toContain('--seccomp');
    expect(plain.slice(plain.indexOf('--'))).toEqual(['--', 'true']);
  });

  it.each([0, -1, 1.5, Number.NaN])('refuses a limit of %s', (value) => {
    expect(() => buildBwrapArgs({ ...scope, limits: { ...limits, tmpBytes: value } }, '/ws', ['true'], sys)).toThrowError(expect.objectContaining({ code: 'INVALID_OPTIONS' }));
  });
});

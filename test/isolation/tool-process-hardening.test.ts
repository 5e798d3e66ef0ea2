import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRIVER_USERS, giveToNobody, type DriverUser } from '../helpers/run-sandboxed.js';
import { makeTempTree, type TempTree } from '../helpers/temp-workspace.js';
import { hasBwrap } from '../helpers/has-bwrap.js';

// The attacks tool code that got past Node's permission model would make from inside an isolated tool process's
// bubblewrap, as root and as nobody: the probe runs the very layout the runtime spawns node with (toolProcessBwrap),
// with /bin/sh in place of node. Syscalls go through perl's syscall() (perl lives in /usr, which the layout has).
// Build first. Needs bubblewrap, as CI installs it.

const PROBE = fileURLToPath(new URL('../helpers/tool-process-probe.mjs', import.meta.url));

/** A raw syscall through perl: prints `<name> <return value> <errno>`; numbers are x86_64's, then aarch64's. */
const sys = (name: string, x64: number, arm64: number, args: string): string =>
  `perl -e 'my $n = $ARGV[0] eq "x86_64" ? ${x64} : ${arm64}; my @a = (${args}); my $r = syscall($n, @a); print "${name} $r ", $!+0, "\\n"' "$(uname -m)"`;

interface ProbeResult {
  script: string;
  stdout: string;
  stderr: string;
  code: number | null;
  fatal?: string;
}

function probe(user: DriverUser, readPaths: string[], scripts: string[]): Promise<ProbeResult[]> {
  const input = JSON.stringify({ readPaths, scripts });
  const argv = user === 'nobody' ? ['runuser', '-u', 'nobody', '--', process.execPath, PROBE, input] : [process.execPath, PROBE, input];
  const [file = '', ...args] = argv;
  return new Promise((resolve, reject) => {
    execFile(file, args, { timeout: 60_000, maxBuffer: 4 * 1024 * 1024 }, (error, stdout, stderr) => {
      try {
        const parsed = JSON.parse(stdout) as ProbeResult[];
        const fatal = parsed.find((r) => r.fatal !== undefined);
        if (fatal) reject(new Error(`probe as ${user}: ${fatal.fatal}`));
        else resolve(parsed);
      } catch {
        reject(new Error(`probe as ${user} failed: ${String(error)}\n${stderr}`));
      }
    });
  });
}

describe.skipIf(!hasBwrap).each(DRIVER_USERS)('inside an isolated tool process as %s', (user) => {
  // Made at collection, so the tables can name their paths.
  const modules: TempTree = makeTempTree('tw-toolproc-mods', { 'tool.mjs': 'export const x = 1;\n', '.git/hooks/.keep': '', 'sub/a.txt': 'a\n' });
  const outside: TempTree = makeTempTree('tw-toolproc-out', { canary: 'canary\n' });
  let results: Map<string, ProbeResult>;
  const attacks: [string, string, RegExp][] = [
    ['/proc/sys/kernel/core_pattern is not writable', '[ -w /proc/sys/kernel/core_pattern ] && echo writable; (true >> /proc/sys/kernel/core_pattern) 2>/dev/null && echo opened; echo end', /^end$/],
    ['/proc/sysrq-trigger is not writable', '(true >> /proc/sysrq-trigger) 2>/dev/null && echo opened; echo end', /^end$/],
    ['/sys is absent', '[ -e /sys ] && echo present; echo end', /^end$/],
    ['no capabilities', 'grep CapEff /proc/self/status', /^CapEff:\s+0+$/],
    ['no new privileges', 'grep NoNewPrivs /proc/self/status', /^NoNewPrivs:\s+1$/],
    ['a seccomp filter', 'grep ^Seccomp: /proc/self/status', /^Seccomp:\s+2$/],
    ['mount is refused', sys('mount', 165, 40, '"none", "/tmp", "tmpfs", 0, 0'), /^mount -1 1$/],
    ['unshare(CLONE_NEWUSER) is refused', sys('unshare', 272, 97, '0x10000000'), /^unshare -1 1$/],
    ['unshare -U (util-linux) is refused', 'unshare -U true 2>&1; echo rc=$?', /Operation not permitted[\s\S]*rc=1$/],
    ['bpf is refused', sys('bpf', 321, 280, '0, 0, 0'), /^bpf -1 1$/],
    ['keyctl is refused', sys('keyctl', 250, 219, '0, 0, 0, 0, 0'), /^keyctl -1 1$/],
    ['a blocked path in a readable directory cannot be written', `(echo x > ${modules.at('.git/hooks/post-checkout')}) 2>/dev/null && echo wrote; mkdir ${modules.at('sub/.ssh')} 2>/dev/null && echo made; echo end`, /^end$/],
    ['nothing it does not read is visible (a file beside its modules in the host /tmp)', `[ -e ${outside.at('canary')} ] && echo visible; echo end`, /^end$/],
    ['no network but loopback', 'grep -c : /proc/net/dev', /^1$/],
    ['/tmp is a private tmpfs with a size cap', 'grep " /tmp " /proc/self/mountinfo', /tmpfs.*size=524288k/],
  ];
  const nearMisses: [string, string, RegExp][] = [
    ['its modules are readable', `cat ${modules.at('tool.mjs')}`, /^export const x = 1;$/],
    ['the private /tmp is writable', 'head -c 1048576 /dev/zero > /tmp/big && wc -c < /tmp/big', /^1048576$/],
    ['an ordinary syscall works (getpid)', sys('getpid', 39, 172, ''), /^getpid [1-9]\d* \d+$/],
  ];

  beforeAll(async () => {
    if (user === 'nobody') giveToNobody(modules.root);
    const scripts = [...attacks, ...nearMisses].map(([, script]) => script);
    results = new Map((await probe(user, [modules.root], scripts)).map((r) => [r.script, r]));
  }, 90_000);
  afterAll(() => {
    modules.cleanup();
    outside.cleanup();
  });

  it.each(attacks)('%s', (_name, script, expected) => {
    const result = results.get(script);
    expect(result?.stdout.trim(), JSON.stringify(result)).toMatch(expected);
  });

  it.each(nearMisses)('near miss: %s', (_name, script, expected) => {
    const result = results.get(script);
    expect(result?.code, JSON.stringify(result)).toBe(0);
    expect(result?.stdout.trim(), JSON.stringify(result)).toMatch(expected);
  });
});

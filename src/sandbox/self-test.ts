/** A property the sandbox self-test proves by trying it from inside a real sandbox. */
export type SelfTestProperty =
  | 'proc-sys-read-only'
  | 'network-absent'
  | 'canary-invisible'
  | 'blocked-path-unwritable'
  | 'no-capabilities'
  | 'no-new-privileges'
  | 'seccomp-active'
  | 'memory-and-cpu-limits'
  | 'private-tmp-capped'
  | 'resource-limits'
  | 'zygote-memory-sealed';

/** What each property means, for `doctor` and error messages. */
export const SELF_TEST_PROPERTIES: Readonly<Record<SelfTestProperty, string>> = Object.freeze({
  'proc-sys-read-only': 'a write to /proc/sys fails',
  'network-absent': 'no network interface but loopback',
  'canary-invisible': 'a file outside the mounted roots is invisible',
  'blocked-path-unwritable': 'a blocked path in the workspace (.git/hooks) cannot be written',
  'no-capabilities': 'CapEff is 0',
  'no-new-privileges': 'NoNewPrivs is 1',
  'seccomp-active': 'a seccomp filter is installed',
  'memory-and-cpu-limits': "each process's private memory (RLIMIT_DATA) and CPU time (RLIMIT_CPU) limits are the configured ones",
  'private-tmp-capped': 'the private /tmp and /dev/shm (and HOME, where it has its own) are each a tmpfs no larger than the cap, and /dev itself takes no file',
  'resource-limits': "the process count limit is the configured one (RLIMIT_NPROC) and binds: for the host's root, whom RLIMIT_NPROC does not bind, a pids cgroup refuses forks past its pids.max",
  'zygote-memory-sealed': "a command cannot write its zygote's memory (/proc/<zygote>/mem), so it cannot make it spawn past the limits",
});

/** One property's outcome. */
export interface SelfTestCheck {
  readonly property: SelfTestProperty;
  readonly passed: boolean;
  /** What was seen, e.g. `CapEff: 0000003fffffffff`. */
  readonly detail: string;
}

/** Where the probe looks: a canary outside every root, and a blocked path inside the workspace. */
export interface SelfTestTargets {
  readonly canary: string;
  readonly blockedDir: string;
  /** Whether the network is meant to be absent (the session's net is not `'*'`). @default true */
  readonly networkAbsent?: boolean;
  /** The RLIMIT_NPROC the sandbox sets, which the probe must see. */
  readonly maxProcesses: number;
  /** The RLIMIT_DATA (bytes) and RLIMIT_CPU (seconds; the hard limit one more) the sandbox sets, which the probe must see. */
  readonly memoryBytes: number;
  readonly cpuSeconds: number;
  /** The size cap of each private tmpfs. */
  readonly tmpBytes: number;
  /** Where the private tmpfs are mounted. @default ['/tmp'] */
  readonly privateDirs?: readonly string[];
  /**
   * When the host runs as root (RLIMIT_NPROC does not bind it): the probe starts this many background processes,
   * and some must be refused, by the pids cgroup the probe's sandbox joined with a smaller pids.max.
   */
  readonly processCountProbe?: number;
  /** The zygote's pid in the probe's pid namespace, when a zygote runs the probe: its memory must not be writable. */
  readonly zygotePid?: number;
  /** A word of the zygote's command line (its entry file), so the probe knows it writes to the zygote. */
  readonly zygoteCommand?: string;
}

const quote = (value: string): string => `'${value.replaceAll("'", "'\\''")}'`;

/** The properties a run over `targets` checks, in report order. */
export function selfTestProperties(targets: SelfTestTargets): SelfTestProperty[] {
  const all = Object.keys(SELF_TEST_PROPERTIES) as SelfTestProperty[];
  return all.filter((p) => (p !== 'network-absent' || targets.networkAbsent !== false) && (p !== 'zygote-memory-sealed' || targets.zygotePid !== undefined));
}

/**
 * A POSIX sh script that checks every property from inside the sandbox in one run and prints one line per
 * property: `<property> ok|fail <detail>`. The /proc/sys probe opens for append and writes nothing, so even on a
 * broken sandbox it changes no kernel setting.
 */
export function buildSelfTestScript(targets: SelfTestTargets): string {
  const probes: readonly (readonly [SelfTestProperty, string, string])[] = [
    ['proc-sys-read-only', '! (true >> /proc/sys/kernel/core_pattern) 2>/dev/null', '/proc/sys/kernel/core_pattern'],
    ['network-absent', '[ "$(grep -c : /proc/net/dev)" -le 1 ]', '$(grep : /proc/net/dev | cut -d: -f1 | tr -d " " | tr "\\n" " ")'],
    ['canary-invisible', `[ ! -e ${quote(targets.canary)} ]`, targets.canary.replaceAll('"', '')],
    ['blocked-path-unwritable', `! (true > ${quote(`${targets.blockedDir}/probe`)}) 2>/dev/null`, targets.blockedDir.replaceAll('"', '')],
    ['no-capabilities', 'grep -q "^CapEff:[[:space:]]*0*$" /proc/self/status', '$(grep CapEff /proc/self/status)'],
    ['no-new-privileges', 'grep -q "^NoNewPrivs:[[:space:]]*1$" /proc/self/status', '$(grep NoNewPrivs /proc/self/status)'],
    ['seccomp-active', 'grep -q "^Seccomp:[[:space:]]*2$" /proc/self/status', '$(grep "^Seccomp:" /proc/self/status)'],
    memoryAndCpuProbe(Math.trunc(targets.memoryBytes), Math.trunc(targets.cpuSeconds)),
    privateTmpProbe(targets.privateDirs ?? ['/tmp'], Math.trunc(targets.tmpBytes)),
    ['zygote-memory-sealed', zygoteMemoryProbe(Math.trunc(targets.zygotePid ?? 0), targets.zygoteCommand ?? ''), `/proc/${Math.trunc(targets.zygotePid ?? 0)}/mem`],
    // Last: its background processes hold their slots until the probe's sandbox ends.
    resourceLimitsProbe(Math.trunc(targets.maxProcesses), targets.processCountProbe === undefined ? undefined : Math.trunc(targets.processCountProbe)),
  ];
  const wanted = new Set(selfTestProperties(targets));
  return probes
    .filter(([property]) => wanted.has(property))
    .map(([property, test, detail]) => `if ${test}; then echo "${property} ok ${detail}"; else echo "${property} fail ${detail}"; fi`)
    .join('\n');
}

// Both rlimits as withRlimits sets them: RLIMIT_DATA soft and hard alike, RLIMIT_CPU's hard limit a second later.
function memoryAndCpuProbe(memoryBytes: number, cpuSeconds: number): readonly [SelfTestProperty, string, string] {
  const data = `grep -q "^Max data size[[:space:]]*${memoryBytes}[[:space:]]*${memoryBytes}[[:space:]]" /proc/self/limits`;
  const cpu = `grep -q "^Max cpu time[[:space:]]*${cpuSeconds}[[:space:]]*${cpuSeconds + 1}[[:space:]]" /proc/self/limits`;
  return ['memory-and-cpu-limits', `${data} && ${cpu}`, '$(grep -e "^Max data size" -e "^Max cpu time" /proc/self/limits | tr -s " " | tr "\\n" ";")'];
}

// Each private directory must be a tmpfs of its own whose size is the cap (rounded up to a page, as the kernel does),
// and /dev (bwrap's, a tmpfs of the host's default size) must refuse a new file.
function privateTmpProbe(dirs: readonly string[], tmpBytes: number): readonly [SelfTestProperty, string, string] {
  const limit = Math.ceil(tmpBytes / 4096) * 4096;
  const capped = dirs.map((dir) => `[ "$(stat -f -c %T ${quote(dir)} 2>/dev/null)" = tmpfs ] && [ "$(( $(stat -f -c '%b * %S' ${quote(dir)}) ))" -le ${limit} ]`);
  const test = [...capped, '! (true > /dev/.toolwarden-probe) 2>/dev/null'].join(' && ');
  return ['private-tmp-capped', test, `$(stat -f -c '%n %T %b*%S' ${dirs.map(quote).join(' ')} 2>&1 | tr "\\n" ";")`];
}

// The configured RLIMIT_NPROC must show; with `tries`, that many background sleeps are started and some must be
// refused (a subshell whose fork fails exits, so fewer than `tries` lines are counted).
function resourceLimitsProbe(maxProcesses: number, tries: number | undefined): readonly [SelfTestProperty, string, string] {
  const rlimit = `grep -q "^Max processes[[:space:]]*${maxProcesses}[[:space:]]" /proc/self/limits`;
  const limits = '$(grep "^Max processes" /proc/self/limits | tr -s " ")';
  if (tries === undefined) return ['resource-limits', rlimit, limits];
  const started = `z_started=$( (z_i=0; while [ $z_i -lt ${tries} ]; do sleep 30 >/dev/null 2>&1 </dev/null & echo s; z_i=$((z_i+1)); done) 2>/dev/null | wc -l)`;
  return ['resource-limits', `${rlimit} && ${started} && [ "$z_started" -lt ${tries} ]`, `${limits}; $z_started of ${tries} background processes started`];
}

// Reads 8 bytes of the zygote's first writable mapping and writes them back: sealed when either fails (Yama, a
// non-dumpable zygote or a kernel that refuses /proc/<pid>/mem writes). Fails closed when it cannot tell: the
// tools it needs missing, or the pid not the zygote (its command line is world-readable, unlike its memory). Run
// against the self-test's own zygote only, which is closed right after, so a write-back harms nothing in use.
function zygoteMemoryProbe(pid: number, command: string): string {
  const mem = `/proc/${pid}/mem`;
  const isZygote = `tr '\\000' ' ' < /proc/${pid}/cmdline 2>/dev/null | grep -qF ${quote(command || 'no zygote named')}`;
  return `command -v awk >/dev/null && command -v dd >/dev/null && ${isZygote} && ! { z_addr=$(awk '$2 ~ /^rw/ { split($1, a, "-"); print a[1]; exit }' /proc/${pid}/maps 2>/dev/null) && [ -n "$z_addr" ] && ` +
    `z_off=$(printf '%d' "0x$z_addr") && z_bytes=$(mktemp) && dd if=${mem} of="$z_bytes" bs=8 count=1 iflag=skip_bytes skip="$z_off" 2>/dev/null && ` +
    `dd if="$z_bytes" of=${mem} bs=8 count=1 oflag=seek_bytes seek="$z_off" conv=notrunc 2>/dev/null; }`;
}

/** The checks from the probe's output; a property the output does not answer (the probe died) failed. */
export function parseSelfTestOutput(stdout: string, targets: SelfTestTargets, failure?: string): SelfTestCheck[] {
  const answers = new Map<string, { passed: boolean; detail: string }>();
  for (const text of stdout.split('\n')) {
    const match = /^(\S+) (ok|fail) ?(.*)$/.exec(text);
    if (match?.[1] !== undefined && !answers.has(match[1])) answers.set(match[1], { passed: match[2] === 'ok', detail: (match[3] ?? '').trim() });
  }
  return selfTestProperties(targets).map((property) => {
    const answer = answers.get(property);
    return answer === undefined ? { property, passed: false, detail: `no answer from the probe${failure ? `: ${failure}` : ''}` } : { property, ...answer };
  });
}

/** The failed checks as one sentence for SANDBOX_UNAVAILABLE or the warning, e.g. `seccomp-active (Seccomp: 0)`. */
export function describeFailures(checks: readonly SelfTestCheck[]): string {
  return checks.filter((c) => !c.passed).map((c) => `${c.property} (${SELF_TEST_PROPERTIES[c.property]}; saw: ${c.detail || 'nothing'})`).join(', ');
}

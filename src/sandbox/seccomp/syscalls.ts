/** The architectures the filter is generated for, as Node's `process.arch` names them. */
export type SeccompArch = 'x64' | 'arm64';

/** `AUDIT_ARCH_*` of each architecture: the filter refuses every call made under another ABI. */
export const AUDIT_ARCH: Readonly<Record<SeccompArch, number>> = Object.freeze({ x64: 0xc000_003e, arm64: 0xc000_00b7 });

/** On x86_64, syscall numbers with this bit set are the x32 ABI, which shares AUDIT_ARCH_X86_64 but not its numbers. */
export const X32_SYSCALL_BIT = 0x4000_0000;

/** A syscall the filter refuses with EPERM, its numbers, and why a tool command does not need it. */
export interface DeniedSyscall {
  readonly name: string;
  /** Its number per architecture; absent where the architecture has no such call. */
  readonly nr: Readonly<Partial<Record<SeccompArch, number>>>;
  readonly why: string;
}

// What a build, test or git command never does and what container escapes and kernel exploits lean on.
// Codex's linux-sandbox and Anthropic's sandbox-runtime were studied: both install their filter as the last step
// before exec and refuse with EPERM rather than killing, so a tool prints a readable error; we do the same. The
// mount, module, kexec and clock calls also need a capability the sandbox drops: there the filter is the second
// wall, for a kernel where a namespace bug hands the capability back. bpf, perf_event_open, userfaultfd,
// io_uring, the keyring and ptrace need none, and the filter is the only wall.
/** The syscalls refused outright. */
export const DENIED_SYSCALLS: readonly DeniedSyscall[] = [
  // Mounts: a new mount could uncover what bwrap hid (a read-only blocked path, the host's /proc/sys).
  { name: 'mount', nr: { x64: 165, arm64: 40 }, why: 'could remount a read-only or masked path' },
  { name: 'umount2', nr: { x64: 166, arm64: 39 }, why: 'could unmount a masking mount and uncover what it hides' },
  { name: 'pivot_root', nr: { x64: 155, arm64: 41 }, why: 'changes the root a user namespace would let it build' },
  { name: 'chroot', nr: { x64: 161, arm64: 51 }, why: 'classic chroot-escape building block; no tool command needs it' },
  { name: 'open_tree', nr: { x64: 428, arm64: 428 }, why: 'new mount API: clones a mount tree' },
  { name: 'move_mount', nr: { x64: 429, arm64: 429 }, why: 'new mount API: attaches a mount' },
  { name: 'fsopen', nr: { x64: 430, arm64: 430 }, why: 'new mount API: creates a filesystem context' },
  { name: 'fsconfig', nr: { x64: 431, arm64: 431 }, why: 'new mount API: configures a filesystem context' },
  { name: 'fsmount', nr: { x64: 432, arm64: 432 }, why: 'new mount API: makes a mount from a context' },
  { name: 'fspick', nr: { x64: 433, arm64: 433 }, why: 'new mount API: reconfigures an existing mount' },
  { name: 'mount_setattr', nr: { x64: 442, arm64: 442 }, why: 'could clear a read-only mount flag' },
  // Namespaces: a fresh user namespace hands back every capability inside it, the usual first step of an exploit.
  { name: 'setns', nr: { x64: 308, arm64: 268 }, why: 'joins another namespace' },
  // Kernel code and kernel attack surface.
  { name: 'kexec_load', nr: { x64: 246, arm64: 104 }, why: 'loads a new kernel' },
  { name: 'kexec_file_load', nr: { x64: 320, arm64: 294 }, why: 'loads a new kernel' },
  { name: 'init_module', nr: { x64: 175, arm64: 105 }, why: 'loads kernel code' },
  { name: 'finit_module', nr: { x64: 313, arm64: 273 }, why: 'loads kernel code' },
  { name: 'delete_module', nr: { x64: 176, arm64: 106 }, why: 'unloads kernel code' },
  { name: 'bpf', nr: { x64: 321, arm64: 280 }, why: 'eBPF verifier bugs are a frequent privilege escalation' },
  { name: 'perf_event_open', nr: { x64: 298, arm64: 241 }, why: 'large kernel surface and side channels; profilers are not tool commands' },
  { name: 'userfaultfd', nr: { x64: 323, arm64: 282 }, why: 'lets an exploit stall the kernel mid-copy to win a race' },
  { name: 'io_uring_setup', nr: { x64: 425, arm64: 425 }, why: 'io_uring bypasses seccomp for the operations it runs and is a frequent escalation' },
  { name: 'io_uring_enter', nr: { x64: 426, arm64: 426 }, why: 'see io_uring_setup' },
  { name: 'io_uring_register', nr: { x64: 427, arm64: 427 }, why: 'see io_uring_setup' },
  // The kernel keyring is not namespaced: keys of the host user would be reachable.
  { name: 'add_key', nr: { x64: 248, arm64: 217 }, why: 'the kernel keyring is shared with the host user' },
  { name: 'request_key', nr: { x64: 249, arm64: 218 }, why: 'the kernel keyring is shared with the host user' },
  { name: 'keyctl', nr: { x64: 250, arm64: 219 }, why: 'the kernel keyring is shared with the host user' },
  // ptrace is refused entirely rather than allowing PTRACE_TRACEME: a tracer can rewrite a tracee's syscalls after
  // the filter ran (kernels before 4.8 skip the re-check), and commands run by an agent do not debug; strace
  // and gdb fail with EPERM instead of opening that hole. process_vm_* read and write another process's memory.
  { name: 'ptrace', nr: { x64: 101, arm64: 117 }, why: 'could rewrite another sandboxed process past the filter' },
  { name: 'process_vm_readv', nr: { x64: 310, arm64: 270 }, why: "reads another process's memory" },
  { name: 'process_vm_writev', nr: { x64: 311, arm64: 271 }, why: "writes another process's memory" },
  { name: 'pidfd_getfd', nr: { x64: 438, arm64: 438 }, why: "copies another process's descriptor (the sandbox init's, a neighbour command's)" },
  // File handles address any inode of a mounted filesystem by number, past the mount layout (the "shocker" escape).
  { name: 'open_by_handle_at', nr: { x64: 304, arm64: 265 }, why: 'opens files outside the mounted view' },
  { name: 'name_to_handle_at', nr: { x64: 303, arm64: 264 }, why: 'the other half of open_by_handle_at' },
  // Host-wide state no command may change.
  { name: 'reboot', nr: { x64: 169, arm64: 142 }, why: 'reboots the host' },
  { name: 'swapon', nr: { x64: 167, arm64: 224 }, why: 'host swap configuration' },
  { name: 'swapoff', nr: { x64: 168, arm64: 225 }, why: 'host swap configuration' },
  { name: 'acct', nr: { x64: 163, arm64: 89 }, why: 'host process accounting' },
  { name: 'quotactl', nr: { x64: 179, arm64: 60 }, why: 'host disk quotas' },
  { name: 'quotactl_fd', nr: { x64: 443, arm64: 443 }, why: 'host disk quotas' },
  { name: 'settimeofday', nr: { x64: 164, arm64: 170 }, why: 'host clock' },
  { name: 'clock_settime', nr: { x64: 227, arm64: 112 }, why: 'host clock' },
  { name: 'clock_adjtime', nr: { x64: 305, arm64: 266 }, why: 'host clock' },
  { name: 'adjtimex', nr: { x64: 159, arm64: 171 }, why: 'host clock' },
  { name: 'syslog', nr: { x64: 103, arm64: 116 }, why: 'the kernel log leaks kernel addresses' },
  { name: 'lookup_dcookie', nr: { x64: 212, arm64: 18 }, why: 'profiling interface, kernel surface only' },
  // x86-only relics.
  { name: 'iopl', nr: { x64: 172 }, why: 'raw I/O port access' },
  { name: 'ioperm', nr: { x64: 173 }, why: 'raw I/O port access' },
  { name: 'uselib', nr: { x64: 134 }, why: 'obsolete loader with a history of bugs' },
  { name: '_sysctl', nr: { x64: 156 }, why: 'obsolete sysctl interface' },
  { name: 'nfsservctl', nr: { x64: 180 }, why: 'obsolete kernel NFS server control' },
];

/** Namespace flags of clone(2) and unshare(2): CLONE_NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWUSER, NEWPID, NEWNET. */
export const CLONE_NEW_NAMESPACES = 0x0002_0000 | 0x0200_0000 | 0x0400_0000 | 0x0800_0000 | 0x1000_0000 | 0x2000_0000 | 0x4000_0000;
/** CLONE_NEWTIME: only unshare(2) takes it (clone(2) keeps the exit signal in the low byte). */
export const CLONE_NEWTIME = 0x80;

/** Syscalls refused only for some arguments (the low 32 bits of one argument). */
export const ARGUMENT_RULES = Object.freeze({
  // A new user namespace hands back all capabilities inside it; fork, threads and vfork do not set these flags.
  clone: { nr: { x64: 56, arm64: 220 }, arg: 0, anyBit: CLONE_NEW_NAMESPACES },
  unshare: { nr: { x64: 272, arm64: 97 }, arg: 0, anyBit: CLONE_NEW_NAMESPACES | CLONE_NEWTIME },
  // TIOCSTI pushes keystrokes into the controlling terminal (the host's, if one leaked); TIOCLINUX can too.
  ioctl: { nr: { x64: 16, arm64: 29 }, arg: 1, equals: [0x5412, 0x541c] },
});

/**
 * clone3 passes its flags in memory a filter cannot read, so it gets ENOSYS: glibc then falls back to clone(2),
 * whose flags the filter checks. EPERM would make glibc fail instead of falling back.
 */
export const CLONE3 = Object.freeze({ nr: { x64: 435, arm64: 435 } as Readonly<Record<SeccompArch, number>> });

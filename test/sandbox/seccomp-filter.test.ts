import { describe, expect, it } from 'vitest';
import { encodeProgram } from '../../src/sandbox/seccomp/bpf.js';
import { buildSeccompProgram, hostSeccompFilter } from '../../src/sandbox/seccomp/filter.js';
import { AUDIT_ARCH, DENIED_SYSCALLS, type SeccompArch } from '../../src/sandbox/seccomp/syscalls.js';

// A tiny interpreter of the classic BPF subset seccomp programs use (ld abs, jeq/jge/jset k, ret k), run over
// the encoded bytes exactly as bwrap hands them to the kernel.
function run(bytes: Uint8Array, data: { nr: number; arch: number; args?: number[] }): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const word = (offset: number): number => {
    if (offset === 0) return data.nr >>> 0;
    if (offset === 4) return data.arch >>> 0;
    const index = (offset - 16) / 8;
    if (!Number.isInteger(index) || index < 0 || index > 5) throw new Error(`load at unexpected offset ${offset}`);
    return (data.args?.[index] ?? 0) >>> 0;
  };
  let a = 0;
  for (let pc = 0; pc < bytes.length / 8; pc += 1) {
    const code = view.getUint16(pc * 8, true);
    const jt = view.getUint8(pc * 8 + 2);
    const jf = view.getUint8(pc * 8 + 3);
    const k = view.getUint32(pc * 8 + 4, true);
    switch (code) {
      case 0x20: a = word(k); break;
      case 0x15: pc += a === k ? jt : jf; break;
      case 0x35: pc += a >= k ? jt : jf; break;
      case 0x45: pc += (a & k) !== 0 ? jt : jf; break;
      case 0x06: return k;
      default: throw new Error(`unknown opcode ${code.toString(16)} at ${pc}`);
    }
  }
  throw new Error('fell off the end of the program');
}

const ALLOW = 0x7fff0000;
const EPERM = 0x00050001;
const ENOSYS = 0x00050026;
const KILL = 0x80000000;
const NR = {
  x64: { read: 0, write: 1, clone: 56, unshare: 272, ioctl: 16, clone3: 435, execve: 59, socket: 41 },
  arm64: { read: 63, write: 64, clone: 220, unshare: 97, ioctl: 29, clone3: 435, execve: 221, socket: 198 },
} as const;
const ARCHES: SeccompArch[] = ['x64', 'arm64'];
const SIGCHLD = 17;

describe.each(ARCHES)('seccomp filter (%s)', (arch) => {
  const bytes = encodeProgram(buildSeccompProgram(arch));
  const call = (nr: number, args: number[] = []): number => run(bytes, { nr, arch: AUDIT_ARCH[arch], args });

  it.each(DENIED_SYSCALLS.filter((s) => s.nr[arch] !== undefined).map((s) => [s.name, s.nr[arch] as number]))('refuses %s with EPERM', (_name, nr) => {
    expect(call(nr)).toBe(EPERM);
  });

  it.each([
    ['clone(CLONE_NEWUSER)', NR[arch].clone, [0x10000000 | SIGCHLD]],
    ['clone(CLONE_NEWNS)', NR[arch].clone, [0x00020000 | SIGCHLD]],
    ['clone(CLONE_NEWNET)', NR[arch].clone, [0x40000000]],
    ['unshare(CLONE_NEWUSER)', NR[arch].unshare, [0x10000000]],
    ['unshare(CLONE_NEWPID)', NR[arch].unshare, [0x20000000]],
    ['unshare(CLONE_NEWTIME)', NR[arch].unshare, [0x80]],
    ['ioctl(TIOCSTI)', NR[arch].ioctl, [0, 0x5412]],
    ['ioctl(TIOCLINUX)', NR[arch].ioctl, [0, 0x541c]],
  ] as const)('refuses %s with EPERM', (_name, nr, args) => {
    expect(call(nr, [...args])).toBe(EPERM);
  });

  it.each([
    ['read', NR[arch].read, []],
    ['write', NR[arch].write, []],
    ['execve', NR[arch].execve, []],
    ['socket', NR[arch].socket, []],
    ['fork-style clone(SIGCHLD)', NR[arch].clone, [SIGCHLD]],
    ['thread clone(CLONE_VM|CLONE_FS|CLONE_FILES|CLONE_SIGHAND|CLONE_THREAD|CLONE_SYSVSEM|CLONE_SETTLS|...)', NR[arch].clone, [0x003d0f00]],
    ['unshare(CLONE_FILES)', NR[arch].unshare, [0x400]],
    ['ioctl(TCGETS)', NR[arch].ioctl, [0, 0x5401]],
    ['ioctl(FIONREAD)', NR[arch].ioctl, [0, 0x541b]],
  ] as const)('allows %s (near miss)', (_name, nr, args) => {
    expect(call(nr, [...args])).toBe(ALLOW);
  });

  it('answers clone3 with ENOSYS so glibc falls back to clone', () => {
    expect(call(NR[arch].clone3)).toBe(ENOSYS);
  });

  it('kills a call made under a foreign architecture', () => {
    const other = arch === 'x64' ? AUDIT_ARCH.arm64 : AUDIT_ARCH.x64;
    expect(run(bytes, { nr: NR[arch].read, arch: other })).toBe(KILL);
    expect(run(bytes, { nr: NR[arch].read, arch: 0x40000003 /* AUDIT_ARCH_I386 */ })).toBe(KILL);
  });
});

describe('seccomp filter details', () => {
  it('refuses x32 ABI calls on x86_64, even of allowed numbers', () => {
    const bytes = encodeProgram(buildSeccompProgram('x64'));
    expect(run(bytes, { nr: 0x40000000 | 0, arch: AUDIT_ARCH.x64 })).toBe(EPERM);
  });

  it('names every denied syscall once', () => {
    const names = DENIED_SYSCALLS.map((s) => s.name);
    expect(new Set(names).size).toBe(names.length);
  });

  it('has no filter for an architecture it does not know', () => {
    expect(hostSeccompFilter('ia32')).toBeUndefined();
    expect(hostSeccompFilter('x64')?.length).toBeGreaterThan(0);
  });
});

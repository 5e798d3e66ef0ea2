import { JEQ_K, JGE_K, JSET_K, SECCOMP_DATA, SECCOMP_RET, encodeProgram, jump, load, ret, type BpfInstruction } from './bpf.js';
import { ARGUMENT_RULES, AUDIT_ARCH, CLONE3, DENIED_SYSCALLS, X32_SYSCALL_BIT, type SeccompArch } from './syscalls.js';

const EPERM = 1;
const ENOSYS = 38;

/** Whether Node's `process.arch` is one the filter is generated for. */
export function isSeccompArch(arch: string): arch is SeccompArch {
  return Object.hasOwn(AUDIT_ARCH, arch);
}

/**
 * The classic BPF program of the sandbox's seccomp filter for `arch`: a call under a foreign ABI kills the
 * process (it could only be an attempt to dodge the numbers below), x32 calls get EPERM, every syscall in
 * DENIED_SYSCALLS and the namespace-creating forms of clone/unshare get EPERM, clone3 gets ENOSYS, the rest runs.
 *
 * @example encodeProgram(buildSeccompProgram('x64')) // the bytes for bwrap --seccomp FD
 */
export function buildSeccompProgram(arch: SeccompArch): BpfInstruction[] {
  const deny = ret(SECCOMP_RET.errno(EPERM));
  const program: BpfInstruction[] = [
    load(SECCOMP_DATA.arch),
    jump(JEQ_K, AUDIT_ARCH[arch], 1, 0),
    ret(SECCOMP_RET.killProcess),
    load(SECCOMP_DATA.nr),
  ];
  if (arch === 'x64') program.push(jump(JGE_K, X32_SYSCALL_BIT, 0, 1), deny);
  for (const syscall of DENIED_SYSCALLS) {
    const nr = syscall.nr[arch];
    if (nr !== undefined) program.push(jump(JEQ_K, nr, 0, 1), deny);
  }
  program.push(jump(JEQ_K, CLONE3.nr[arch], 0, 1), ret(SECCOMP_RET.errno(ENOSYS)));
  // Each argument block ends in a return, so the accumulator's syscall number is never needed after it.
  for (const rule of [ARGUMENT_RULES.clone, ARGUMENT_RULES.unshare]) {
    program.push(jump(JEQ_K, rule.nr[arch], 0, 4), load(SECCOMP_DATA.argLow(rule.arg)), jump(JSET_K, rule.anyBit, 0, 1), deny, ret(SECCOMP_RET.allow));
  }
  const { ioctl } = ARGUMENT_RULES;
  const requests = ioctl.equals;
  program.push(jump(JEQ_K, ioctl.nr[arch], 0, 2 + requests.length + 1), load(SECCOMP_DATA.argLow(ioctl.arg)));
  requests.forEach((request, i) => program.push(jump(JEQ_K, request, requests.length - i, 0)));
  program.push(ret(SECCOMP_RET.allow), deny);
  program.push(ret(SECCOMP_RET.allow));
  return program;
}

/** The filter for the host's architecture as bytes for bwrap, or undefined on an architecture it does not know. */
export function hostSeccompFilter(arch: string = process.arch): Uint8Array | undefined {
  return isSeccompArch(arch) ? encodeProgram(buildSeccompProgram(arch)) : undefined;
}

/** One classic BPF instruction (`struct sock_filter`). */
export interface BpfInstruction {
  readonly code: number;
  readonly jt: number;
  readonly jf: number;
  readonly k: number;
}

/** `BPF_LD | BPF_W | BPF_ABS`: load the 32-bit word at offset k of `struct seccomp_data`. */
export const LD_ABS_W = 0x20;
/** `BPF_JMP | BPF_JEQ | BPF_K`. */
export const JEQ_K = 0x15;
/** `BPF_JMP | BPF_JGE | BPF_K`. */
export const JGE_K = 0x35;
/** `BPF_JMP | BPF_JSET | BPF_K`: jump when A & k is non-zero. */
export const JSET_K = 0x45;
/** `BPF_RET | BPF_K`. */
export const RET_K = 0x06;

/** Offsets into `struct seccomp_data` (nr u32, arch u32, instruction_pointer u64, args u64[6]). */
export const SECCOMP_DATA = Object.freeze({ nr: 0, arch: 4, argLow: (index: number): number => 16 + 8 * index });

/** seccomp return values. */
export const SECCOMP_RET = Object.freeze({
  killProcess: 0x8000_0000,
  allow: 0x7fff_0000,
  errno: (errno: number): number => 0x0005_0000 | (errno & 0xffff),
});

/** Loads a word of `struct seccomp_data`. */
export const load = (offset: number): BpfInstruction => ({ code: LD_ABS_W, jt: 0, jf: 0, k: offset });
/** Returns `value` (a SECCOMP_RET_*). */
export const ret = (value: number): BpfInstruction => ({ code: RET_K, jt: 0, jf: 0, k: value >>> 0 });
/** A conditional jump; `jt`/`jf` count instructions skipped after this one. */
export const jump = (code: number, k: number, jt: number, jf: number): BpfInstruction => {
  if (jt > 255 || jf > 255) throw new RangeError(`BPF jump offset ${Math.max(jt, jf)} does not fit in 8 bits`);
  return { code, jt, jf, k: k >>> 0 };
};

/** The program as bwrap's `--seccomp FD` reads it: 8 bytes per instruction, little-endian (x86_64, aarch64). */
export function encodeProgram(program: readonly BpfInstruction[]): Uint8Array {
  const bytes = new Uint8Array(program.length * 8);
  const view = new DataView(bytes.buffer);
  program.forEach((insn, i) => {
    view.setUint16(i * 8, insn.code, true);
    view.setUint8(i * 8 + 2, insn.jt);
    view.setUint8(i * 8 + 3, insn.jf);
    view.setUint32(i * 8 + 4, insn.k, true);
  });
  return bytes;
}

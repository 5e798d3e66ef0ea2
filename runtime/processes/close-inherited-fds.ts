/**
 * Marks every descriptor of this process from 3 up close-on-exec (`close_range(3, ~0, CLOSE_RANGE_CLOEXEC)`), so
 * nothing it inherited without that flag reaches what it spawns. The process launcher calls it at start: a host
 * embedding the runtime may leak descriptors into it (an editor's sockets, a harness's files), and every command,
 * sandboxed or not, would inherit them from the launcher. Node's own descriptors are close-on-exec already, and the
 * launcher never execs itself, so nothing of its own is lost. Node has no fcntl; koffi (an optional dependency with
 * prebuilt binaries) calls libc's.
 */
import { loadLibc } from './libc.js';

const CLOSE_RANGE_CLOEXEC = 4;
const SYS_CLOSE_RANGE_X64_ARM64 = 436;

/** Marks them; returns why it could not (not Linux, koffi missing, the call refused), or undefined once done. */
export async function markInheritedFdsCloseOnExec(): Promise<string | undefined> {
  const loaded = await loadLibc();
  if ('failure' in loaded) return loaded.failure;
  const { libc } = loaded;
  try {
    let closeRange: (first: number, last: number, flags: number) => number;
    try {
      closeRange = libc.func('int close_range(unsigned int first, unsigned int last, int flags)');
    } catch {
      // glibc before 2.34 has no wrapper: the system call itself (5.11+), same number on x64 and arm64
      const syscall = libc.func('long syscall(long number, unsigned int first, unsigned int last, int flags)');
      closeRange = (first, last, flags) => Number(syscall(SYS_CLOSE_RANGE_X64_ARM64, first, last, flags));
    }
    return closeRange(3, 0xffffffff, CLOSE_RANGE_CLOEXEC) === 0 ? undefined : 'close_range(3, ~0, CLOSE_RANGE_CLOEXEC) failed';
  } catch (error) {
    return `close_range through koffi failed: ${(error as Error).message}`;
  }
}

/**
 * Makes this process non-dumpable (`prctl(PR_SET_DUMPABLE, 0)`), so a process of the same user without
 * CAP_SYS_PTRACE can no longer open its /proc/<pid>/{mem,fd,environ} or ptrace it. The zygote calls this before it
 * spawns any command: commands run as its user in its namespaces, and with its memory writable they could make it
 * spawn past their limits. Node has no prctl; koffi (an optional dependency with prebuilt binaries) calls libc's.
 * The runtime does not take this on trust: the sandbox self-test's zygote-memory-sealed property probes it.
 */
import { existsSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { loadLibc } from '../processes/libc.js';

const PR_GET_DUMPABLE = 3;
const PR_SET_DUMPABLE = 4;

/** Seals this process; returns why it could not (koffi missing, not Linux, prctl refused), or undefined once sealed. */
export async function makeNonDumpable(): Promise<string | undefined> {
  const loaded = await loadLibc();
  if ('failure' in loaded) return `prctl: ${loaded.failure}`;
  try {
    const prctl = loaded.libc.func('int prctl(int option, unsigned long arg2, unsigned long arg3, unsigned long arg4, unsigned long arg5)');
    if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) !== 0) return 'prctl(PR_SET_DUMPABLE, 0) failed';
    return prctl(PR_GET_DUMPABLE, 0, 0, 0, 0) === 0 ? undefined : 'prctl(PR_GET_DUMPABLE) still says dumpable';
  } catch (error) {
    return `prctl through koffi failed: ${(error as Error).message}`;
  }
}

/**
 * The package directories {@link makeNonDumpable} loads from (koffi and its prebuilt binary for this platform), real
 * paths, for the sandbox to show read-only; empty when koffi is not installed (the zygote then stays dumpable and
 * the self-test says so).
 */
export function nonDumpableModuleDirs(): string[] {
  const require = createRequire(import.meta.url);
  try {
    const koffi = packageRoot(realpathSync(require.resolve('koffi')));
    const dirs = [koffi];
    try {
      const prebuilt = createRequire(`${koffi}/package.json`).resolve(`@koromix/koffi-${process.platform}-${process.arch}`);
      dirs.push(dirname(realpathSync(prebuilt)));
    } catch {
      // no prebuilt for this platform: koffi looks in its own build/ directory, inside the dir above
    }
    return dirs;
  } catch {
    return [];
  }
}

/** The directory of the package.json nearest above `file`. */
function packageRoot(file: string): string {
  for (let dir = dirname(file); dir !== dirname(dir); dir = dirname(dir)) {
    if (existsSync(`${dir}/package.json`)) return dir;
  }
  return dirname(file);
}

import { execFile } from 'node:child_process';
import { chownSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** One command's result as the sandbox driver reports it. */
export interface DriverResult {
  command: string;
  isError: boolean;
  code: string | null;
  exitCode: number | null;
  stdout: string;
  stderr: string;
  text: string;
  blocked: unknown;
  sandboxWarning: string | null;
}

/** Session and runtime settings of a driver run besides the commands. */
export interface DriverSettings {
  limits?: Record<string, number>;
  sandbox?: 'auto' | 'required';
  /** PATH of the driver's runtime (where it looks for bwrap and prlimit). */
  envPath?: string;
  excludedPaths?: string[];
  /** The runtime's `sandboxZygote` option. @default the runtime's default */
  sandboxZygote?: boolean | { max?: number; idleMs?: number; allowZygoteMemoryWrites?: boolean };
  /** The session's `net` (default false). */
  net?: false | string[];
}

const DRIVER = fileURLToPath(new URL('./sandbox-driver.mjs', import.meta.url));
const NOBODY = 65534;

/** Who runs the driver: this process's user, or `nobody` through runuser (only when this process is root). */
export type DriverUser = 'self' | 'nobody';

/** The users to run privilege tests as: this one, and nobody too when this process is root. */
export const DRIVER_USERS: DriverUser[] = process.getuid?.() === 0 ? ['self', 'nobody'] : ['self'];

/** Hands a workspace to `nobody` (recursively) so a driver run as nobody can write it. */
export function giveToNobody(root: string): void {
  chownSync(root, NOBODY, NOBODY);
  for (const name of readdirSync(root)) {
    const path = join(root, name);
    const stat = statSync(path, { throwIfNoEntry: false });
    if (stat?.isDirectory()) giveToNobody(path);
    else chownSync(path, NOBODY, NOBODY);
  }
}

/** Runs `commands` in one session (sandbox 'required' unless `settings` say) of the built runtime (dist/), as `user`. */
export function runSandboxed(user: DriverUser, workspaceRoot: string, commands: string[], settings: DriverSettings = {}): Promise<DriverResult[]> {
  const input = JSON.stringify({ workspaceRoot, commands, ...settings });
  const argv = user === 'nobody' ? ['runuser', '-u', 'nobody', '--', process.execPath, DRIVER, input] : [process.execPath, DRIVER, input];
  const [file = '', ...args] = argv;
  return new Promise((resolve, reject) => {
    execFile(file, args, { timeout: 60_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      try {
        const parsed = JSON.parse(stdout) as (DriverResult & { fatal?: string; message?: string })[];
        const fatal = parsed.find((r) => r.fatal !== undefined);
        if (fatal) reject(new Error(`driver as ${user}: ${fatal.fatal} ${fatal.message}`));
        else resolve(parsed);
      } catch {
        reject(new Error(`driver as ${user} failed: ${String(error)}\n${stderr}`));
      }
    });
  });
}

/**
 * The zygote setting of the suites that exercise zygotes: they use one even where the zygote could not seal itself
 * (koffi missing), where the runtime by default would not, so a zygote's behaviour is tested everywhere and the
 * tamper suite's memory rows say whether sealing held.
 */
export const ZYGOTE_UNDER_TEST = { allowZygoteMemoryWrites: true } as const;

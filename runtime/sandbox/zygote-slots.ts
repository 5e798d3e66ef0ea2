import { ToolwardenError } from '../../src/errors.js';

/** How many standing sandboxes (zygotes) a runtime keeps, and how long one may sit idle. */
export interface ZygoteSettings {
  /** Zygotes alive at once across the runtime's sessions; a session past it runs a bwrap per command. @default 32 */
  readonly max: number;
  /** A zygote with no command running for this long is closed; the next command starts a fresh one. @default 30000 */
  readonly idleMs: number;
  /**
   * Use zygotes even where the self-test finds a command can write its zygote's memory (`/proc/<zygote>/mem`: same
   * user, no Yama, a Node zygote cannot make itself non-dumpable). Such a command can make the zygote spawn without
   * the per-command rlimits (CPU, memory, processes, file size); the mounts, namespaces, capabilities and seccomp
   * filter still hold. @default false
   */
  readonly allowZygoteMemoryWrites: boolean;
}

/** The defaults of {@link ZygoteSettings}: one zygote holds about 9 MB of its own (49 MB RSS) and 8 threads. */
export const DEFAULT_ZYGOTE_SETTINGS: ZygoteSettings = { max: 32, idleMs: 30_000, allowZygoteMemoryWrites: false };

/** The runtime-wide count of live zygotes against {@link ZygoteSettings.max}. */
export class ZygoteSlots {
  readonly settings: ZygoteSettings;
  #used = 0;

  constructor(settings: ZygoteSettings = DEFAULT_ZYGOTE_SETTINGS) {
    this.settings = settings;
  }

  /** Takes a slot for a zygote about to start; false when all are taken (the command then gets a bwrap of its own). */
  take(): boolean {
    if (this.#used >= this.settings.max) return false;
    this.#used += 1;
    return true;
  }

  /** Gives back the slot of a zygote that is gone. */
  give(): void {
    this.#used = Math.max(0, this.#used - 1);
  }

  /** Zygotes alive (or starting) now. */
  get used(): number {
    return this.#used;
  }
}

/**
 * The zygote settings of the runtime option `sandboxZygote`: `false` is none (undefined), `true` or absent the
 * defaults, an object the defaults with its own `max` (integer >= 1) and `idleMs` (integer >= 1).
 * @throws ToolwardenError INVALID_OPTIONS naming the field
 */
export function zygoteSettingsOf(option: unknown): ZygoteSettings | undefined {
  if (option === false) return undefined;
  if (option === undefined || option === true) return DEFAULT_ZYGOTE_SETTINGS;
  if (typeof option !== 'object' || option === null || Array.isArray(option)) {
    throw new ToolwardenError('INVALID_OPTIONS', `sandboxZygote must be a boolean or { max, idleMs, allowZygoteMemoryWrites }, got ${Array.isArray(option) ? 'an array' : typeof option}`);
  }
  const record = option as Record<string, unknown>;
  const unknown = Object.keys(record).find((key) => !['max', 'idleMs', 'allowZygoteMemoryWrites'].includes(key));
  if (unknown !== undefined) throw new ToolwardenError('INVALID_OPTIONS', `unknown sandboxZygote option '${unknown}' (max, idleMs, allowZygoteMemoryWrites)`);
  const allow = record['allowZygoteMemoryWrites'];
  if (allow !== undefined && typeof allow !== 'boolean') {
    throw new ToolwardenError('INVALID_OPTIONS', `sandboxZygote.allowZygoteMemoryWrites must be a boolean, got ${typeof allow}`);
  }
  const field = (key: 'max' | 'idleMs'): number => {
    const value = record[key];
    if (value === undefined) return DEFAULT_ZYGOTE_SETTINGS[key];
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
      throw new ToolwardenError('INVALID_OPTIONS', `sandboxZygote.${key} must be an integer >= 1, got ${String(value)}`);
    }
    return value;
  };
  return { max: field('max'), idleMs: field('idleMs'), allowZygoteMemoryWrites: allow === true };
}

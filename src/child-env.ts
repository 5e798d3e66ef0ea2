import { ToolwardenError } from './errors.js';

/**
 * Variables every child gets from the host when set: enough to find programs, a home, a locale and a
 * terminal, nothing that usually holds a credential. Matched case-insensitively (Windows spells `Path`).
 */
export const BASE_CHILD_ENV_NAMES = [
  'PATH', 'HOME', 'USER', 'LOGNAME', 'SHELL', 'TERM', 'LANG', 'LANGUAGE', 'LC_ALL', 'LC_CTYPE', 'LC_MESSAGES',
  'TZ', 'TMPDIR', 'TEMP', 'TMP',
  // Windows: programs fail in odd ways without these.
  'SYSTEMROOT', 'WINDIR', 'COMSPEC', 'PATHEXT', 'SYSTEMDRIVE', 'USERPROFILE', 'USERNAME', 'PROGRAMFILES', 'PROGRAMDATA',
] as const;

const BASE_SET: ReadonlySet<string> = new Set(BASE_CHILD_ENV_NAMES);
const NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Builds the environment for a child process: the base variables ({@link BASE_CHILD_ENV_NAMES}) copied from
 * `hostEnv`, plus `allow`, then `overrides`. Nothing else of the host leaks through.
 *
 * `allow` is either a list of names and `PREFIX_*` patterns copied from the host (Deno's `--allow-env`), or
 * an explicit map of values set as given. A bare `*` is refused: it would pass every host secret.
 * @example buildChildEnv(process.env, ['NODE_ENV', 'npm_config_*'], { HOME: '/ws' })
 */
export function buildChildEnv(
  hostEnv: Record<string, string | undefined>,
  allow: string[] | Record<string, string> | undefined,
  overrides?: { HOME?: string },
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(hostEnv)) {
    if (value !== undefined && BASE_SET.has(name.toUpperCase())) env[name] = value;
  }
  if (Array.isArray(allow)) {
    const matchers = allow.map(compileAllowEntry);
    for (const [name, value] of Object.entries(hostEnv)) {
      if (value !== undefined && matchers.some((matches) => matches(name))) env[name] = value;
    }
  } else if (allow !== undefined) {
    for (const [name, value] of Object.entries(allow)) {
      checkEntry(name, value);
      env[name] = value;
    }
  }
  if (overrides?.HOME !== undefined) {
    checkEntry('HOME', overrides.HOME);
    env['HOME'] = overrides.HOME;
  }
  return env;
}

function compileAllowEntry(entry: string): (name: string) => boolean {
  const prefix = entry.endsWith('*') ? entry.slice(0, -1) : undefined;
  const checked = prefix ?? entry;
  if (!NAME_PATTERN.test(checked)) {
    throw new ToolwardenError(
      'INVALID_OPTIONS',
      `env allowlist entry "${entry}" must be a variable name or a "PREFIX_*" pattern (letters, digits, "_"; "*" only at the end, never alone)`,
    );
  }
  return prefix === undefined ? (name) => name === entry : (name) => name.startsWith(prefix);
}

function checkEntry(name: string, value: unknown): void {
  if (!NAME_PATTERN.test(name)) {
    throw new ToolwardenError('INVALID_OPTIONS', `env variable name "${name}" must contain only letters, digits and "_" and not start with a digit`);
  }
  if (typeof value !== 'string' || value.includes('\0')) {
    throw new ToolwardenError('INVALID_OPTIONS', `env variable "${name}" must have a string value without NUL bytes`);
  }
}

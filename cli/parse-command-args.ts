import { ToolwardenError } from '../src/errors.js';

/** The `--help` / `-h` flag every command takes, for its `parseArgs` options. */
export const HELP_OPTION = { help: { type: 'boolean', short: 'h' } } as const;

/**
 * Runs a command's `parseArgs` call, turning its errors (unknown flag, missing value, stray positional) into
 * usage errors.
 * @throws ToolwardenError INVALID_ARGS with parseArgs' message, for the caller to print with the usage.
 * @example usageErrors('demo', () => parseArgs({ args, options: HELP_OPTION, strict: true }).values)
 */
export function usageErrors<R>(command: string, parse: () => R): R {
  try {
    return parse();
  } catch (error) {
    throw new ToolwardenError('INVALID_ARGS', `toolwarden ${command}: ${(error as Error).message}`);
  }
}

/** Splits a comma-separated list flag (`--tools read_file,grep`), dropping empty items. */
export function splitList(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  return value.split(',').map((item) => item.trim()).filter((item) => item !== '');
}

/**
 * A flag that must be one of `choices`.
 * @throws ToolwardenError INVALID_ARGS naming the flag and the choices.
 */
export function requireChoice<C extends string>(flag: string, value: string | undefined, choices: readonly C[]): C | undefined {
  if (value === undefined) return undefined;
  if (!(choices as readonly string[]).includes(value)) {
    throw new ToolwardenError('INVALID_ARGS', `--${flag} must be one of ${choices.join(', ')}, got '${value}'`);
  }
  return value as C;
}

import { parseArgs, type ParseArgsConfig } from 'node:util';
import { didYouMean } from '../src/did-you-mean.js';
import { ToolwardenError } from '../src/errors.js';
import { BUILTIN_TOOL_NAMES, isBuiltinTool } from '../src/tools/builtin-schemas.js';

/** The `--help` / `-h` flag every command takes, for its `parseArgs` options. */
export const HELP_OPTION = { help: { type: 'boolean', short: 'h' } } as const;

/**
 * A usage error: `runCli` prints it as `toolwarden <command>: <message>` above the command's usage and exits 2, so
 * the message carries no prefix of its own.
 */
export function usageError(message: string): ToolwardenError {
  return new ToolwardenError('INVALID_ARGS', message);
}

type Options = NonNullable<ParseArgsConfig['options']>;
/** What `parseArgs` returns for a command's options. */
export type ParsedCommandArgs<O extends Options> = ReturnType<typeof parseArgs<{ options: O; strict: true; allowPositionals: boolean }>>;

/**
 * A command's flags by `parseArgs` (strict), its errors (unknown flag, missing value, stray positional) turned into
 * usage errors; an unknown flag close to a known one gets a "did you mean".
 * @throws ToolwardenError INVALID_ARGS, for `runCli` to print with the usage.
 * @example parseCommandArgs(argv, { ...HELP_OPTION, json: { type: 'boolean' } }).values
 */
export function parseCommandArgs<O extends Options>(argv: readonly string[], options: O, allowPositionals = false): ParsedCommandArgs<O> {
  try {
    return parseArgs({ args: [...argv], options, strict: true, allowPositionals });
  } catch (error) {
    const { code, message } = error as { code?: string; message: string };
    const unknown = code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ? /'(-[^']*)'/.exec(message)?.[1] : undefined;
    if (unknown === undefined) throw usageError(message);
    const flags = Object.keys(options).map((name) => `--${name}`);
    const hint = didYouMean(unknown, flags) || `; options: ${flags.join(', ')}`;
    throw usageError(`Unknown option '${unknown}'${hint}`);
  }
}

/** Splits a comma-separated list flag (`--tools read_file,grep`), dropping empty items. */
export function splitList(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  return value.split(',').map((item) => item.trim()).filter((item) => item !== '');
}

/**
 * A `--tools` list of built-in tools (a served session has no host tools), each checked before the runtime starts, as
 * `openSession` would check it, with a "did you mean" for a typo.
 * @throws ToolwardenError INVALID_OPTIONS naming the unknown tool and the closest known one.
 */
export function toolList(value: string | undefined): string[] | undefined {
  const tools = splitList(value);
  const unknown = tools?.find((tool) => !isBuiltinTool(tool));
  if (unknown !== undefined) {
    throw new ToolwardenError('INVALID_OPTIONS', `unknown tool '${unknown}' in --tools${didYouMean(unknown, BUILTIN_TOOL_NAMES)}; known: ${BUILTIN_TOOL_NAMES.join(', ')}`);
  }
  return tools;
}

/**
 * A flag that must be one of `choices`.
 * @throws ToolwardenError INVALID_ARGS naming the flag and the choices.
 */
export function requireChoice<C extends string>(flag: string, value: string | undefined, choices: readonly C[]): C | undefined {
  if (value === undefined) return undefined;
  if (!(choices as readonly string[]).includes(value)) throw usageError(`--${flag} must be one of ${choices.join(', ')}, got '${value}'${didYouMean(value, choices)}`);
  return value as C;
}

/**
 * A flag that must be an integer from `min` to `max`.
 * @throws ToolwardenError INVALID_ARGS naming the flag and the range.
 */
export function requireWholeNumber(flag: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!/^\d+$/.test(value) || number < min || number > max) throw usageError(`--${flag} must be an integer from ${min} to ${max}, got '${value}'`);
  return number;
}

import { hasGlob, unescapePattern } from '../patterns.js';
import type { Word } from '../words.js';
import type { CommandApi } from './api.js';

/**
 * Every option a tool accepts, the way its option parser reads them (getopt_long for GNU tools).
 * - `short`: getopt syntax, `ab:c::` = flag `a`, `b` takes a value (attached `-bX` or the next word), `c` takes an
 *   optional value that must be attached (`sed -i.bak`).
 * - `long`: names without `--`; a trailing `=` takes a value (`--name=v` or `--name v`), `?` an optional value
 *   (`--name=v` only). Any unambiguous prefix names the option, as getopt_long allows.
 * - `digits`: `-NUM` is an option (`head -5`).
 * An option not in the spec is reported in {@link ParsedArgs.unknown}: the checker does not know what it does.
 */
export interface OptionSpec {
  short?: string;
  long?: readonly string[];
  digits?: boolean;
  /** Everything from the first operand on is an operand (wrappers: `timeout 5 cmd -x`). */
  stopAtOperand?: boolean;
}

/** One parsed option: its canonical name without dashes (long options fully spelled), and its value. */
export interface ParsedOption {
  name: string;
  value: Word | null;
}

/** Options and operands of a command line, in order. */
export interface ParsedArgs {
  options: ParsedOption[];
  operands: Word[];
  /** For stopAtOperand: the index in args of the first operand, or args.length. */
  rest: number;
  /** Options the spec does not know, or long prefixes that are ambiguous, as written. */
  unknown: string[];
  /** Words only known at run time before `--`: each may turn out to be an option. */
  dynamic: Word[];
}

type Arity = 'none' | 'required' | 'optional';

/** Splits arguments into options and operands as getopt_long does (permuting); a dynamic word is an operand. */
export function parseOptions(args: readonly Word[], spec: OptionSpec): ParsedArgs {
  const options: ParsedOption[] = [];
  const operands: Word[] = [];
  const unknown: string[] = [];
  const dynamic: Word[] = [];
  const shorts = shortArities(spec.short ?? '');
  const longs = longArities([...(spec.long ?? []), 'help', 'version']);
  for (let i = 0; i < args.length; i++) {
    const word = args[i] as Word;
    const text = word.value;
    if (text === null || text === '-' || !text.startsWith('-')) {
      if (text === null) dynamic.push(word);
      if (spec.stopAtOperand) return { options, operands: args.slice(i), rest: i, unknown, dynamic };
      operands.push(word);
    } else if (text === '--') {
      operands.push(...args.slice(i + 1));
      return { options, operands, rest: spec.stopAtOperand ? i + 1 : args.length, unknown, dynamic };
    } else if (text.startsWith('--')) {
      const eq = text.indexOf('=');
      const written = text.slice(2, eq === -1 ? undefined : eq);
      const name = resolveLong(written, longs);
      const arity = name === null ? undefined : longs.get(name);
      if (name === null || arity === undefined || (eq !== -1 && arity === 'none')) {
        unknown.push(text);
        if (eq === -1 && name === null) continue;
      }
      const canonical = name ?? written;
      if (eq !== -1) options.push({ name: canonical, value: subWord(word, eq + 1) });
      else if (arity === 'required') options.push({ name: canonical, value: args[++i] ?? null });
      else options.push({ name: canonical, value: null });
    } else {
      if (spec.digits === true && /^-\d+$/.test(text)) {
        options.push({ name: text.slice(1), value: null });
        continue;
      }
      for (let j = 1; j < text.length; j++) {
        const name = text[j] as string;
        const arity = shorts.get(name);
        if (arity === undefined) unknown.push(`-${name}`);
        if (arity === 'required') {
          options.push({ name, value: j + 1 < text.length ? subWord(word, j + 1) : (args[++i] ?? null) });
          break;
        }
        if (arity === 'optional') {
          options.push({ name, value: j + 1 < text.length ? subWord(word, j + 1) : null });
          break;
        }
        options.push({ name, value: null });
      }
    }
  }
  return { options, operands, rest: args.length, unknown, dynamic };
}

/** The long option `written` names: itself, else the only option it is a prefix of; null when none or ambiguous. */
export function resolveLong(written: string, longs: ReadonlyMap<string, Arity>): string | null {
  if (longs.has(written)) return written;
  const matches = [...longs.keys()].filter((name) => name.startsWith(written));
  return matches.length === 1 ? (matches[0] as string) : null;
}

function shortArities(short: string): Map<string, Arity> {
  const out = new Map<string, Arity>();
  for (let i = 0; i < short.length; i++) {
    const c = short[i] as string;
    if (short[i + 1] === ':' && short[i + 2] === ':') {
      out.set(c, 'optional');
      i += 2;
    } else if (short[i + 1] === ':') {
      out.set(c, 'required');
      i++;
    } else {
      out.set(c, 'none');
    }
  }
  return out;
}

function longArities(long: readonly string[]): Map<string, Arity> {
  return new Map(long.map((l): [string, Arity] => (l.endsWith('=') ? [l.slice(0, -1), 'required'] : l.endsWith('?') ? [l.slice(0, -1), 'optional'] : [l, 'none'])));
}

/** Parses as {@link parseOptions} and reports every option the spec does not know: the checker cannot tell what it does. */
export function parseKnown(args: readonly Word[], spec: OptionSpec, api: Pick<CommandApi, 'unresolved'>): ParsedArgs {
  const parsed = parseOptions(args, spec);
  for (const text of parsed.unknown) api.unresolved(text, 'an option the checker does not know for this command', 'unknown');
  if (spec.stopAtOperand !== true) for (const word of parsed.dynamic) api.unresolved(word, `${word.reason}; it may turn out to be an option`);
  return parsed;
}

/** The values given to any of the named options. */
export function optionValues(parsed: ParsedArgs, ...names: string[]): Word[] {
  return parsed.options.filter((o) => names.includes(o.name) && o.value !== null).map((o) => o.value as Word);
}

/** Whether any of the named options is present. */
export function hasOption(parsed: ParsedArgs, ...names: string[]): boolean {
  return parsed.options.some((o) => names.includes(o.name));
}

/** The part of a word from the `offset`-th literal character on, keeping its quoting. */
export function subWord(word: Word, offset: number): Word {
  let seen = 0;
  let i = 0;
  while (i < word.pattern.length && seen < offset) {
    i += word.pattern[i] === '\\' ? 2 : 1;
    seen++;
  }
  const pattern = word.pattern.slice(i);
  return { ...word, value: unescapePattern(pattern), pattern, glob: hasGlob(pattern) };
}

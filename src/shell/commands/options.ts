import { hasGlob, unescapePattern } from '../patterns.js';
import type { Word } from '../words.js';

/** Which options of a command take a value. */
export interface OptionSpec {
  /** Short options that take a value, attached (`-fFILE`) or as the next word (`-f FILE`). */
  short?: string;
  /** Long options (without `--`) that take a value, as `--name=v` or `--name v`. */
  long?: readonly string[];
  /** Short options whose value, if any, must be attached (`sed -i.bak`). */
  attached?: string;
  /** Everything from the first operand on is an operand (wrappers: `timeout 5 cmd -x`). */
  stopAtOperand?: boolean;
}

/** One parsed option: its name without dashes, and its value when it takes one. */
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
}

/** Splits arguments into options and operands following GNU conventions; a dynamic word counts as an operand. */
export function parseOptions(args: readonly Word[], spec: OptionSpec): ParsedArgs {
  const options: ParsedOption[] = [];
  const operands: Word[] = [];
  const short = spec.short ?? '';
  const attached = spec.attached ?? '';
  for (let i = 0; i < args.length; i++) {
    const word = args[i] as Word;
    const text = word.value;
    if (text === null || text === '-' || !text.startsWith('-')) {
      if (spec.stopAtOperand) return { options, operands: args.slice(i), rest: i };
      operands.push(word);
    } else if (text === '--') {
      operands.push(...args.slice(i + 1));
      return { options, operands, rest: spec.stopAtOperand ? i + 1 : args.length };
    } else if (text.startsWith('--')) {
      const eq = text.indexOf('=');
      const name = text.slice(2, eq === -1 ? undefined : eq);
      if (eq !== -1) options.push({ name, value: subWord(word, eq + 1) });
      else if (spec.long?.includes(name)) options.push({ name, value: args[++i] ?? null });
      else options.push({ name, value: null });
    } else {
      for (let j = 1; j < text.length; j++) {
        const name = text[j] as string;
        if (attached.includes(name)) {
          options.push({ name, value: j + 1 < text.length ? subWord(word, j + 1) : null });
          break;
        }
        if (short.includes(name)) {
          options.push({ name, value: j + 1 < text.length ? subWord(word, j + 1) : (args[++i] ?? null) });
          break;
        }
        options.push({ name, value: null });
      }
    }
  }
  return { options, operands, rest: args.length };
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

import type { Extractor } from './api.js';
import { syntheticWord } from './api.js';
import { hasOption, optionValues, parseOptions } from './options.js';

const GREP_VALUES = ['regexp', 'file', 'max-count', 'after-context', 'before-context', 'context', 'include', 'exclude', 'exclude-from', 'exclude-dir', 'directories', 'devices', 'label', 'binary-files', 'color', 'colour', 'group-separator'];

/** grep: the pattern (unless `-e`/`-f`) then files read; `-r` with no file searches `.`. */
export const grepFiles: Extractor = (args, api) => {
  const parsed = parseOptions(args, { short: 'efmABCdD', long: GREP_VALUES });
  for (const word of optionValues(parsed, 'f', 'file', 'exclude-from')) api.read(word);
  const files = hasOption(parsed, 'e', 'f', 'regexp', 'file') ? parsed.operands : parsed.operands.slice(1);
  if (files.length === 0 && hasOption(parsed, 'r', 'R', 'recursive', 'dereference-recursive')) files.push(syntheticWord('.'));
  for (const word of files) api.read(word);
};

const RG_VALUES = ['regexp', 'file', 'glob', 'iglob', 'type', 'type-not', 'type-add', 'type-clear', 'max-count', 'after-context', 'before-context', 'context', 'threads', 'max-columns', 'max-depth', 'max-filesize', 'ignore-file', 'replace', 'pre', 'pre-glob', 'encoding', 'sort', 'sortr', 'color', 'colors', 'context-separator', 'field-match-separator', 'path-separator', 'engine', 'regex-size-limit', 'dfa-size-limit', 'hostname-bin', 'hyperlink-format', 'max-depth', 'field-context-separator'];

/** ripgrep: the pattern (unless `-e`/`-f`) then paths read, `.` by default; `--pre` runs a command. */
export const rgFiles: Extractor = (args, api) => {
  const parsed = parseOptions(args, { short: 'efgtTmABCjMrEd', long: RG_VALUES });
  for (const word of optionValues(parsed, 'f', 'file', 'ignore-file')) api.read(word);
  for (const word of optionValues(parsed, 'pre', 'hostname-bin')) api.unresolved(word, 'ripgrep runs this program on the files, which is not checked');
  const listing = hasOption(parsed, 'files', 'type-list');
  const files = hasOption(parsed, 'e', 'f', 'regexp', 'file') || listing ? parsed.operands : parsed.operands.slice(1);
  if (files.length === 0) files.push(syntheticWord('.'));
  for (const word of files) api.read(word);
};

// GNU sed commands that touch files or run programs: r R w W e, and the w/e flags of s.
const SED_FILE_COMMAND = /(^|[;\n{}]|[0-9$/!,~+]\s*)\s*[rRwWe]\b|s(.).*\2.*\2[gpiImMe0-9]*[we]/;

/** sed: the script (unless `-e`/`-f`) then files read, or written with `-i`; scripts that r/w/e files ask. */
export const sedFiles: Extractor = (args, api) => {
  const parsed = parseOptions(args, { short: 'efl', long: ['expression', 'file', 'line-length', 'separate'], attached: 'i' });
  for (const word of optionValues(parsed, 'f', 'file')) api.read(word);
  const fromOptions = hasOption(parsed, 'e', 'f', 'expression', 'file');
  const scripts = fromOptions ? optionValues(parsed, 'e', 'expression') : parsed.operands.slice(0, 1);
  for (const script of scripts) {
    if (script.value === null) api.unresolved(script, 'the sed script is only known at run time');
    else if (SED_FILE_COMMAND.test(script.value)) api.unresolved(script, 'the sed script reads, writes or runs files (r, w, e), which is not checked');
  }
  if (hasOption(parsed, 'f', 'file')) api.unresolved('-f', 'a sed script file may read, write or run files, which is not checked');
  const inPlace = hasOption(parsed, 'i', 'in-place');
  for (const word of fromOptions ? parsed.operands : parsed.operands.slice(1)) {
    if (inPlace) api.write(word);
    else api.read(word);
  }
};

// awk programs that can run commands or open files by name: system(), pipes, getline, print redirection.
const AWK_RISKY = /system|getline|\||>|ENVIRON|close|fflush|@load|@include/;

/** awk: the program (unless `-f`) then files read; programs that can write or run commands ask. */
export const awkFiles: Extractor = (args, api) => {
  const parsed = parseOptions(args, { short: 'fvFEiloW', long: ['file', 'assign', 'field-separator', 'exec', 'include', 'load', 'source'] });
  for (const word of optionValues(parsed, 'f', 'file', 'E', 'exec', 'i', 'include')) {
    api.read(word);
    api.unresolved(word, 'an awk program file may write files or run commands, which is not checked');
  }
  if (hasOption(parsed, 'l', 'load')) api.unresolved('-l', 'awk loads a shared library, which is not checked');
  const fromFile = hasOption(parsed, 'f', 'file', 'E', 'exec');
  const programs = [...optionValues(parsed, 'source'), ...(fromFile ? [] : parsed.operands.slice(0, 1))];
  for (const program of programs) {
    if (program.value === null) api.unresolved(program, 'the awk program is only known at run time');
    else if (AWK_RISKY.test(program.value)) api.unresolved(program, 'the awk program can write files or run commands (>, |, system, getline), which is not checked');
  }
  for (const word of fromFile ? parsed.operands : parsed.operands.slice(1)) {
    if (word.value === null || !/^[A-Za-z_][A-Za-z0-9_]*=/.test(word.value)) api.read(word);
  }
};

/** jq: the filter (unless `-f`) then files read; `--args` and `--jsonargs` make the rest values, not files. */
export const jqFiles: Extractor = (args, api) => {
  const valueArgs = args.findIndex((w) => w.value === '--args' || w.value === '--jsonargs');
  const own = valueArgs === -1 ? args : args.slice(0, valueArgs);
  const rest = own.filter((word, i) => {
    const previous = own[i - 1]?.value;
    const beforePrevious = own[i - 2]?.value;
    if (previous === '--arg' || previous === '--argjson' || previous === '--slurpfile' || previous === '--rawfile') return false;
    if (beforePrevious === '--arg' || beforePrevious === '--argjson') return false;
    if (beforePrevious === '--slurpfile' || beforePrevious === '--rawfile') {
      api.read(word);
      return false;
    }
    return true;
  });
  const parsed = parseOptions(rest, { short: 'fL', long: ['from-file', 'indent', 'seq'] });
  for (const word of optionValues(parsed, 'f', 'from-file', 'L')) api.read(word);
  const fromFile = hasOption(parsed, 'f', 'from-file');
  for (const word of fromFile ? parsed.operands : parsed.operands.slice(1)) api.read(word);
};

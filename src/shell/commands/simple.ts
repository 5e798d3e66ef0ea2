import type { Word } from '../words.js';
import { syntheticWord, type CommandApi, type Extractor } from './api.js';
import { parseOptions, type OptionSpec, type ParsedArgs } from './options.js';

/** How an extractor built by {@link operandsAs} treats what it finds. */
export interface OperandRule extends OptionSpec {
  /** Option values that are files: option name to access mode. */
  files?: Readonly<Record<string, 'read' | 'write'>>;
  /** Leading operands that are not files (a pattern, a mode), unless one of `scriptFrom` options is present. */
  skip?: number;
  /** Options that supply what the first skipped operand would (`grep -e`, `sed -f`). */
  scriptFrom?: readonly string[];
  /** The operand used when none is given (`ls` lists `.`). */
  fallback?: string;
}

/** An extractor whose operands all share one access mode. */
export function operandsAs(mode: 'read' | 'write' | 'none', rule: OperandRule = {}): Extractor {
  return (args, api) => {
    const parsed = parseOptions(args, rule);
    checkOptionFiles(parsed, rule, api);
    if (mode === 'none') return;
    const skipped = parsed.options.some((o) => rule.scriptFrom?.includes(o.name)) ? 0 : (rule.skip ?? 0);
    const files = parsed.operands.slice(skipped);
    if (files.length === 0 && rule.fallback !== undefined) files.push(syntheticWord(rule.fallback));
    for (const word of files) access(api, mode, word);
  };
}

/** Reports the option values that name files. */
export function checkOptionFiles(parsed: ParsedArgs, rule: Pick<OperandRule, 'files'>, api: CommandApi): void {
  for (const option of parsed.options) {
    const mode = rule.files?.[option.name];
    if (mode && option.value) access(api, mode, option.value);
  }
}

/** Reports one access in the given mode. */
export function access(api: CommandApi, mode: 'read' | 'write', word: Word): void {
  if (mode === 'read') api.read(word);
  else api.write(word);
}

/** Commands that take no file operands. */
export const PATH_FREE = [
  'echo', 'printf', 'pwd', 'true', 'false', 'sleep', ':', 'exit', 'export', 'set', 'unset', 'read', 'seq', 'whoami',
  'id', 'uname', 'which', 'type', 'basename', 'dirname', 'expr', 'local', 'declare', 'typeset', 'readonly', 'return',
  'shift', 'wait', 'yes', 'let', 'getopts', 'shopt', 'umask', 'jobs', 'hash', 'times', 'break', 'continue', 'printenv',
  'tty', 'nproc', 'arch', 'logname', 'groups', 'tr', 'unalias', 'help', 'caller', 'dirs', 'ulimit',
] as const;

/** Commands whose operands are all read, with their value-taking options. */
export const READERS: Readonly<Record<string, OperandRule>> = {
  cat: {},
  tac: { short: 's', long: ['separator'] },
  rev: {},
  head: { short: 'cn', long: ['bytes', 'lines'] },
  tail: { short: 'cns', long: ['bytes', 'lines', 'pid', 'sleep-interval', 'max-unchanged-stats'] },
  wc: { long: ['files0-from'], files: { 'files0-from': 'read' } },
  cut: { short: 'bcdf', long: ['bytes', 'characters', 'delimiter', 'fields', 'output-delimiter'] },
  paste: { short: 'd', long: ['delimiters'] },
  column: { short: 'cdsoNHWREl', long: ['columns', 'separator', 'output-separator', 'table-columns', 'table-hide', 'table-wrap', 'table-right', 'table-name', 'table-order', 'table-truncate', 'table-columns-limit', 'table-noextreme'] },
  file: { short: 'mfFeP', long: ['magic-file', 'files-from', 'separator', 'exclude', 'exclude-quiet', 'parameter'], files: { m: 'read', 'magic-file': 'read', f: 'read', 'files-from': 'read' } },
  stat: { short: 'c', long: ['format', 'printf'] },
  strings: { short: 'ntesT', long: ['bytes', 'radix', 'encoding', 'target', 'output-separator'] },
  hexdump: { short: 'nsefL', long: ['length', 'skip', 'format', 'format-file', 'color'], files: { f: 'read', 'format-file': 'read' } },
  od: { short: 'AjNtwS', long: ['address-radix', 'skip-bytes', 'read-bytes', 'format', 'width', 'strings', 'endian'] },
  base64: { short: 'w', long: ['wrap'] },
  base32: { short: 'w', long: ['wrap'] },
  nl: { short: 'bdfhilnsvw', long: ['body-numbering', 'section-delimiter', 'footer-numbering', 'header-numbering', 'line-increment', 'join-blank-lines', 'number-format', 'number-separator', 'starting-line-number', 'number-width'] },
  ls: { short: 'ITw', long: ['ignore', 'hide', 'tabsize', 'width', 'format', 'time-style', 'sort', 'time', 'indicator-style', 'block-size', 'quoting-style'], fallback: '.' },
  tree: { short: 'LPIo', files: { o: 'write' }, fallback: '.' },
  du: { short: 'BdtX', long: ['block-size', 'max-depth', 'threshold', 'exclude', 'exclude-from', 'files0-from', 'time-style'], files: { X: 'read', 'exclude-from': 'read', 'files0-from': 'read' }, fallback: '.' },
  diff: { short: 'xXIUCFLS', long: ['exclude', 'exclude-from', 'ignore-matching-lines', 'unified', 'context', 'show-function-line', 'label', 'starting-file', 'from-file', 'to-file', 'line-format', 'tabsize', 'width', 'color', 'palette'], files: { X: 'read', 'exclude-from': 'read', 'from-file': 'read', 'to-file': 'read' } },
  cmp: { short: 'inI', long: ['ignore-initial', 'bytes'] },
  comm: { long: ['output-delimiter'] },
  fold: { short: 'w', long: ['width'] },
  expand: { short: 't', long: ['tabs'] },
  unexpand: { short: 't', long: ['tabs'] },
  realpath: { long: ['relative-to', 'relative-base'] },
  readlink: {},
  b2sum: { short: 'l', long: ['length'] },
  cksum: { short: 'al', long: ['algorithm', 'length'] },
  date: { short: 'dfrI', long: ['date', 'file', 'reference', 'iso-8601', 'rfc-3339'], files: { f: 'read', file: 'read', r: 'read', reference: 'read' } },
  hostname: { short: 'F', long: ['file'], files: { F: 'read', file: 'read' } },
};

/** Commands whose operands are all written (created or changed), with their value-taking options. */
export const WRITERS: Readonly<Record<string, OperandRule>> = {
  mkdir: { short: 'mZ', long: ['mode', 'context'] },
  touch: { short: 'drt', long: ['date', 'reference', 'time'], files: { r: 'read', reference: 'read' } },
  tee: {},
  truncate: { short: 'sr', long: ['size', 'reference'], files: { r: 'read', reference: 'read' } },
  chmod: { long: ['reference'], files: { reference: 'read' }, skip: 1, scriptFrom: ['reference'] },
  chown: { long: ['reference', 'from'], files: { reference: 'read' }, skip: 1, scriptFrom: ['reference'] },
  chgrp: { long: ['reference'], files: { reference: 'read' }, skip: 1, scriptFrom: ['reference'] },
};

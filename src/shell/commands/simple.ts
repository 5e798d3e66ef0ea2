import type { Word } from '../words.js';
import { syntheticWord, type CommandApi, type Extractor } from './api.js';
import { hasOption, parseKnown, type OptionSpec, type ParsedArgs } from './options.js';

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
  /** With these options present (all of one group), the command walks its operands following symlinks. */
  walkWith?: readonly (readonly string[])[];
  /**
   * With any of these options the command looks at the entries of a directory operand through their links (`ls -L`
   * stats what it lists): each link among them is read, or every link of the tree under `walkWith`.
   */
  followWith?: readonly string[];
  /** The command follows links as `followWith` says unless one of these options is given (`diff --no-dereference`). */
  followUnless?: readonly string[];
  /** With any of these options the command changes every entry below a directory operand (`chmod -R`): each is written. */
  treeWith?: readonly string[];
  /** No operand is a file (`numfmt 1000`). */
  skipAll?: boolean;
  /** A leading operand may be a mode that looks like an option (`chmod -w,a+rwx FILE`). */
  modes?: boolean;
  /** `any` when a written operand may become a directory (`mkdir`) or is changed, never made (`chmod`); else a file. */
  leaves?: 'file' | 'any';
  /**
   * The forms that change the machine rather than a file (`date -s`, `date MMDDhhmm`, `hostname NAME`): any of
   * `options`, or an operand matching `operand` (one only known at run time too); such a command asks, with `reason`.
   */
  changesSystem?: { options: readonly string[]; operand?: RegExp; reason: string };
}

/** An extractor whose operands all share one access mode. */
export function operandsAs(mode: 'read' | 'write' | 'none', rule: OperandRule = {}): Extractor {
  return (args, api) => {
    // A command that takes no file operands cannot be steered to a file by an option it has.
    if (mode === 'none') return;
    const parsed = parseKnown(rule.modes === true ? modesAsOperands(args) : args, rule, api);
    checkOptionFiles(parsed, rule, api);
    if (rule.changesSystem) checkSystemChange(parsed, rule.changesSystem, api);
    if (rule.skipAll === true) return;
    const skipped = parsed.options.some((o) => rule.scriptFrom?.includes(o.name)) ? 0 : (rule.skip ?? 0);
    const files = parsed.operands.slice(skipped);
    if (files.length === 0 && rule.fallback !== undefined) files.push(syntheticWord(rule.fallback));
    const unfollowed = hasOption(parsed, ...(rule.followUnless ?? []));
    const walks = !unfollowed && rule.walkWith?.some((group) => group.every((name) => name.split('|').some((n) => hasOption(parsed, n)))) === true;
    const follows = !unfollowed && (rule.followUnless !== undefined || hasOption(parsed, ...(rule.followWith ?? [])));
    const changesTree = mode === 'write' && hasOption(parsed, ...(rule.treeWith ?? []));
    for (const word of files) {
      if (walks) api.walk(word, mode);
      else if (follows) api.walk(word, mode, 1);
      else access(api, mode, word, rule.leaves);
      if (changesTree) api.changeTree(word);
    }
  };
}

function checkSystemChange(parsed: ParsedArgs, change: NonNullable<OperandRule['changesSystem']>, api: CommandApi): void {
  const setting = parsed.options.find((o) => change.options.includes(o.name));
  const { operand } = change;
  const setter = operand === undefined ? undefined : parsed.operands.find((word) => word.value === null || operand.test(word.value));
  if (setting) api.unresolved(`${setting.name.length === 1 ? '-' : '--'}${setting.name}`, change.reason);
  else if (setter) api.unresolved(setter, change.reason);
}

// chmod reads `-w` and `-x,a+r` as modes, not options (GNU chmod collects them as the mode): such words become
// the mode operand, which comes first.
function modesAsOperands(args: Word[]): Word[] {
  const isMode = (w: Word): boolean => w.value !== null && /^-[rwxXstugoa0-7,+=-]+$/.test(w.value) && w.value !== '--';
  const modes = args.filter(isMode);
  if (modes.length === 0) return args;
  const mode = syntheticWord(`mode:${modes.map((w) => w.value).join(',')}`);
  return [mode, ...args.filter((w) => !isMode(w))];
}

/** Reports the option values that name files. */
export function checkOptionFiles(parsed: ParsedArgs, rule: Pick<OperandRule, 'files'>, api: CommandApi): void {
  for (const option of parsed.options) {
    const mode = rule.files?.[option.name];
    if (mode && option.value) access(api, mode, option.value);
  }
}

/** Reports one access in the given mode (`leaves`: see {@link CommandApi.write}). */
export function access(api: CommandApi, mode: 'read' | 'write', word: Word, leaves?: 'file' | 'any'): void {
  if (mode === 'read') api.read(word);
  else api.write(word, leaves);
}

/** Commands that take no file operands. */
export const PATH_FREE = [
  'echo', 'printf', 'pwd', 'true', 'false', 'sleep', ':', 'exit', 'export', 'set', 'unset', 'read', 'seq', 'whoami',
  'id', 'uname', 'which', 'type', 'basename', 'dirname', 'expr', 'local', 'declare', 'typeset', 'readonly', 'return',
  'shift', 'yes', 'let', 'getopts', 'shopt', 'umask', 'hash', 'times', 'break', 'continue', 'printenv',
  'tty', 'nproc', 'arch', 'logname', 'groups', 'tr', 'unalias', 'help', 'caller', 'dirs', 'ulimit',
] as const;

/** Commands whose operands are all read, with every option they accept (see {@link OptionSpec}). */
export const READERS: Readonly<Record<string, OperandRule>> = {
  cat: { short: 'AbeEnstTuv', long: ['show-all', 'number-nonblank', 'show-ends', 'number', 'squeeze-blank', 'show-tabs', 'show-nonprinting'] },
  tac: { short: 'brs:', long: ['before', 'regex', 'separator='] },
  rev: { short: '0', long: ['zero'] },
  head: { short: 'c:n:qvz', digits: true, long: ['bytes=', 'lines=', 'quiet', 'silent', 'verbose', 'zero-terminated'] },
  tail: { short: 'c:fFn:qs:vz', digits: true, long: ['bytes=', 'follow?', 'lines=', 'max-unchanged-stats=', 'pid=', 'quiet', 'silent', 'retry', 'sleep-interval=', 'verbose', 'zero-terminated'] },
  wc: { short: 'cmlLw', long: ['bytes', 'chars', 'lines', 'files0-from=', 'max-line-length', 'words', 'total='], files: { 'files0-from': 'read' } },
  cut: { short: 'b:c:d:f:nsz', long: ['bytes=', 'characters=', 'delimiter=', 'fields=', 'complement', 'only-delimited', 'output-delimiter=', 'zero-terminated'] },
  paste: { short: 'd:sz', long: ['delimiters=', 'serial', 'zero-terminated'] },
  column: { short: 'c:d:eHs:o:tN:R:T:W:E:jJl:L0nrx', long: ['columns=', 'separator=', 'output-separator=', 'table', 'table-columns=', 'table-hide=', 'table-wrap=', 'table-right=', 'table-name=', 'table-order=', 'table-truncate=', 'table-columns-limit=', 'table-noextreme=', 'table-noheadings', 'table-empty-lines', 'json', 'fillrows', 'keep-empty-lines'] },
  file: { short: 'bcCdEhiIkLlm:NnprsSvzZ0e:f:F:P:', long: ['brief', 'checking-printout', 'compile', 'debug', 'exclude=', 'exclude-quiet=', 'extension', 'files-from=', 'separator=', 'mime', 'mime-type', 'mime-encoding', 'keep-going', 'list', 'dereference', 'no-dereference', 'magic-file=', 'no-buffer', 'no-pad', 'parameter=', 'preserve-date', 'raw', 'special-files', 'uncompress', 'uncompress-noreport', 'print0', 'apple'], files: { m: 'read', 'magic-file': 'read', f: 'read', 'files-from': 'read' } },
  stat: { short: 'c:fLt', long: ['format=', 'printf=', 'file-system', 'dereference', 'terse', 'cached='] },
  strings: { short: 'adfn:t:e:s:owT:UDwh', digits: true, long: ['all', 'data', 'print-file-name', 'bytes=', 'radix=', 'encoding=', 'output-separator=', 'include-all-whitespace', 'target=', 'unicode='] },
  hexdump: { short: 'bcCdoxvn:s:e:f:L::', long: ['one-byte-octal', 'one-byte-char', 'canonical', 'two-bytes-decimal', 'two-bytes-octal', 'two-bytes-hex', 'length=', 'skip=', 'format=', 'format-file=', 'no-squeezing', 'color?'], files: { f: 'read', 'format-file': 'read' } },
  od: { short: 'A:j:N:S:t:w::abcdfilosvx', long: ['address-radix=', 'endian=', 'skip-bytes=', 'read-bytes=', 'strings?', 'format=', 'output-duplicates', 'width?', 'traditional'] },
  base64: { short: 'diw:', long: ['decode', 'ignore-garbage', 'wrap='] },
  base32: { short: 'diw:', long: ['decode', 'ignore-garbage', 'wrap='] },
  nl: { short: 'b:d:f:h:i:l:n:ps:v:w:', long: ['body-numbering=', 'section-delimiter=', 'footer-numbering=', 'header-numbering=', 'line-increment=', 'join-blank-lines=', 'number-format=', 'no-renumber', 'number-separator=', 'starting-line-number=', 'number-width='] },
  ls: { short: 'aAbBcCdDfFgGhHiI:klLmnNopqQrRsStT:uUvw:xXZ1', long: ['all', 'almost-all', 'author', 'escape', 'block-size=', 'ignore-backups', 'color?', 'directory', 'dired', 'classify?', 'file-type', 'format=', 'full-time', 'group-directories-first', 'no-group', 'human-readable', 'si', 'dereference-command-line', 'dereference-command-line-symlink-to-dir', 'hide=', 'hyperlink?', 'indicator-style=', 'inode', 'ignore=', 'kibibytes', 'dereference', 'literal', 'numeric-uid-gid', 'hide-control-chars', 'show-control-chars', 'quote-name', 'quoting-style=', 'reverse', 'recursive', 'size', 'sort=', 'time=', 'time-style=', 'tabsize=', 'width=', 'context', 'zero'], fallback: '.', walkWith: [['R|recursive', 'L|dereference']], followWith: ['L', 'dereference'] },
  tree: { short: 'adlfxL:RP:I:ponsughDFqNQrtvUcCAS', long: ['noreport', 'dirsfirst', 'filesfirst', 'charset=', 'filelimit=', 'prune', 'matchdirs', 'ignore-case', 'du', 'sort='], fallback: '.', walkWith: [['l']] },
  du: { short: '0abB:cd:DhHklLmPsSt:xX:', long: ['null', 'all', 'apparent-size', 'block-size=', 'bytes', 'total', 'dereference-args', 'max-depth=', 'files0-from=', 'human-readable', 'inodes', 'dereference', 'count-links', 'no-dereference', 'separate-dirs', 'si', 'summarize', 'threshold=', 'time?', 'time-style=', 'exclude-from=', 'exclude=', 'one-file-system'], files: { X: 'read', 'exclude-from': 'read', 'files0-from': 'read' }, fallback: '.', walkWith: [['L|dereference']] },
  diff: { short: 'abBcC:dD:eEfF:hiI:lL:nNpPqrsS:tTuU:vwWx:X:yZ', digits: true, long: ['normal', 'brief', 'report-identical-files', 'context?', 'unified?', 'ed', 'rcs', 'side-by-side', 'width=', 'left-column', 'suppress-common-lines', 'show-c-function', 'show-function-line=', 'label=', 'expand-tabs', 'initial-tab', 'tabsize=', 'suppress-blank-empty', 'new-file', 'unidirectional-new-file', 'ignore-case', 'ignore-file-name-case', 'no-ignore-file-name-case', 'ignore-tab-expansion', 'ignore-trailing-space', 'ignore-space-change', 'ignore-all-space', 'ignore-blank-lines', 'ignore-matching-lines=', 'text', 'strip-trailing-cr', 'old-line-format=', 'new-line-format=', 'unchanged-line-format=', 'line-format=', 'old-group-format=', 'new-group-format=', 'changed-group-format=', 'unchanged-group-format=', 'minimal', 'horizon-lines=', 'speed-large-files', 'color?', 'palette=', 'recursive', 'no-dereference', 'starting-file=', 'exclude=', 'exclude-from=', 'from-file=', 'to-file=', 'ifdef=', 'GTYPE-group-format='], files: { X: 'read', 'exclude-from': 'read', 'from-file': 'read', 'to-file': 'read' }, walkWith: [['r|recursive']], followUnless: ['no-dereference'] },
  cmp: { short: 'bi:ln:sv', long: ['print-bytes', 'ignore-initial=', 'verbose', 'bytes=', 'quiet', 'silent'] },
  comm: { short: '123iz', long: ['check-order', 'nocheck-order', 'output-delimiter=', 'total', 'zero-terminated'] },
  fold: { short: 'bsw:', digits: true, long: ['bytes', 'spaces', 'width='] },
  expand: { short: 'it:', digits: true, long: ['initial', 'tabs='] },
  unexpand: { short: 'at:', digits: true, long: ['all', 'first-only', 'tabs='] },
  realpath: { short: 'eLmPqsz', long: ['canonicalize-existing', 'canonicalize-missing', 'logical', 'physical', 'quiet', 'relative-to=', 'relative-base=', 'strip', 'no-symlinks', 'zero'], files: { 'relative-to': 'read', 'relative-base': 'read' } },
  readlink: { short: 'femnqsvz', long: ['canonicalize', 'canonicalize-existing', 'canonicalize-missing', 'no-newline', 'quiet', 'silent', 'verbose', 'zero'] },
  b2sum: { short: 'bcl:tz', long: ['binary', 'length=', 'tag', 'text', 'zero', 'quiet', 'status', 'strict', 'warn', 'ignore-missing'] },
  cksum: { short: 'a:bl:tz', long: ['algorithm=', 'base64', 'length=', 'raw', 'tag', 'untagged', 'zero'] },
  date: { short: 'd:f:I::r:R::s:uR', long: ['date=', 'debug', 'file=', 'iso-8601?', 'resolution', 'reference=', 'rfc-email', 'rfc-3339=', 'set=', 'utc', 'universal'], files: { f: 'read', file: 'read', r: 'read', reference: 'read' }, skipAll: true, changesSystem: { options: ['s', 'set'], operand: /^[^+]/, reason: 'date --set, or an operand other than +FORMAT (MMDDhhmm[[CC]YY][.ss]), sets the system clock' } },
  hostname: { short: 'aAdfF:iIsy', long: ['alias', 'all-fqdns', 'domain', 'fqdn', 'long', 'file=', 'ip-address', 'all-ip-addresses', 'short', 'yp', 'nis'], files: { F: 'read', file: 'read' }, skipAll: true, changesSystem: { options: ['F', 'file'], operand: /^/, reason: 'hostname NAME (or -F FILE) sets the host name' } },
  numfmt: { short: 'd:z', long: ['debug', 'delimiter=', 'field=', 'format=', 'from=', 'from-unit=', 'grouping', 'header?', 'invalid=', 'padding=', 'round=', 'suffix=', 'to=', 'to-unit=', 'zero-terminated'], skipAll: true },
};

/** Commands whose operands are all written (created or changed), with every option they accept. */
export const WRITERS: Readonly<Record<string, OperandRule>> = {
  mkdir: { short: 'm:pvZ', long: ['mode=', 'parents', 'verbose', 'context?'], leaves: 'any' },
  mkfifo: { short: 'm:Z', long: ['mode=', 'context?'] },
  touch: { short: 'acd:fhmr:t:', long: ['date=', 'no-create', 'no-dereference', 'reference=', 'time='], files: { r: 'read', reference: 'read' } },
  tee: { short: 'aip', long: ['append', 'ignore-interrupts', 'output-error?'] },
  truncate: { short: 'cors:r:', long: ['no-create', 'io-blocks', 'reference=', 'size='], files: { r: 'read', reference: 'read' } },
  chmod: { short: 'cfvR', long: ['changes', 'silent', 'quiet', 'verbose', 'no-preserve-root', 'preserve-root', 'reference=', 'recursive'], files: { reference: 'read' }, skip: 1, scriptFrom: ['reference'], modes: true, leaves: 'any', treeWith: ['R', 'recursive'] },
  chown: { short: 'cfvhRHLP', long: ['changes', 'silent', 'quiet', 'verbose', 'dereference', 'no-dereference', 'from=', 'no-preserve-root', 'preserve-root', 'reference=', 'recursive'], files: { reference: 'read' }, skip: 1, scriptFrom: ['reference'], walkWith: [['R|recursive', 'L'], ['R|recursive', 'H']], leaves: 'any', treeWith: ['R', 'recursive'] },
  chgrp: { short: 'cfvhRHLP', long: ['changes', 'silent', 'quiet', 'verbose', 'dereference', 'no-dereference', 'no-preserve-root', 'preserve-root', 'reference=', 'recursive'], files: { reference: 'read' }, skip: 1, scriptFrom: ['reference'], walkWith: [['R|recursive', 'L'], ['R|recursive', 'H']], leaves: 'any', treeWith: ['R', 'recursive'] },
};

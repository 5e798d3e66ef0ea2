import { posix } from 'node:path';
import type { CommandApi, Extractor } from './api.js';
import { syntheticWord } from './api.js';
import type { Word } from '../words.js';
import { hasOption, optionValues, parseKnown, type OptionSpec } from './options.js';
import { parseSedScript } from './sed-script.js';

const GREP: OptionSpec = {
  short: 'EFGPe:f:iyvwxcLlm:obHhqsnTZzA:B:C:aID:d:rRUV',
  digits: true,
  long: ['extended-regexp', 'fixed-strings', 'basic-regexp', 'perl-regexp', 'regexp=', 'file=', 'ignore-case', 'no-ignore-case', 'word-regexp', 'line-regexp', 'null-data', 'no-messages', 'invert-match', 'max-count=', 'byte-offset', 'line-number', 'no-line-number', 'line-buffered', 'with-filename', 'no-filename', 'label=', 'only-matching', 'quiet', 'silent', 'binary-files=', 'text', 'directories=', 'devices=', 'recursive', 'dereference-recursive', 'include=', 'exclude=', 'exclude-from=', 'exclude-dir=', 'files-without-match', 'files-with-matches', 'count', 'initial-tab', 'null', 'before-context=', 'after-context=', 'context=', 'color?', 'colour?', 'binary', 'group-separator=', 'no-group-separator'],
};

/** grep: the pattern (unless `-e`/`-f`) then files read; `-r` with no file searches `.`. */
export const grepFiles: Extractor = (args, api) => {
  const parsed = parseKnown(args, GREP, api);
  for (const word of optionValues(parsed, 'f', 'file', 'exclude-from')) api.read(word);
  const files = hasOption(parsed, 'e', 'f', 'regexp', 'file') ? parsed.operands : parsed.operands.slice(1);
  if (files.length === 0 && hasOption(parsed, 'r', 'R', 'recursive', 'dereference-recursive')) files.push(syntheticWord('.'));
  const walks = hasOption(parsed, 'R', 'dereference-recursive');
  for (const word of files) (walks ? api.walk(word) : api.read(word));
};

const RG_FLAGS = ['files', 'type-list', 'hidden', 'no-hidden', 'no-ignore', 'ignore', 'json', 'no-json', 'vimgrep', 'heading', 'no-heading', 'follow', 'no-follow', 'null', 'null-data', 'count', 'count-matches', 'files-with-matches', 'files-without-match', 'fixed-strings', 'no-fixed-strings', 'ignore-case', 'smart-case', 'case-sensitive', 'invert-match', 'no-invert-match', 'word-regexp', 'line-regexp', 'line-number', 'no-line-number', 'with-filename', 'no-filename', 'only-matching', 'quiet', 'unrestricted', 'search-zip', 'no-search-zip', 'text', 'no-text', 'multiline', 'no-multiline', 'multiline-dotall', 'no-multiline-dotall', 'pcre2', 'no-pcre2', 'no-messages', 'messages', 'stats', 'no-stats', 'trim', 'no-trim', 'max-columns-preview', 'no-max-columns-preview', 'no-ignore-vcs', 'no-ignore-parent', 'no-ignore-dot', 'no-ignore-global', 'no-ignore-exclude', 'no-ignore-files', 'ignore-file-case-insensitive', 'one-file-system', 'passthru', 'byte-offset', 'column', 'no-column', 'crlf', 'no-crlf', 'debug', 'trace', 'no-config', 'mmap', 'no-mmap', 'no-unicode', 'unicode', 'block-buffered', 'line-buffered', 'binary', 'no-binary', 'auto-hybrid-regex', 'include-zero', 'no-include-zero', 'glob-case-insensitive', 'no-glob-case-insensitive', 'no-pcre2-unicode', 'pretty', 'sort-files', 'no-sort-files', 'no-require-git', 'require-git', 'no-block-buffered', 'no-line-buffered', 'no-context-separator', 'no-pre', 'no-encoding', 'no-heading'];
const RG_VALUES = ['regexp', 'file', 'glob', 'iglob', 'type', 'type-not', 'type-add', 'type-clear', 'max-count', 'after-context', 'before-context', 'context', 'threads', 'max-columns', 'max-depth', 'max-filesize', 'ignore-file', 'replace', 'pre', 'pre-glob', 'encoding', 'sort', 'sortr', 'color', 'colors', 'context-separator', 'field-match-separator', 'path-separator', 'engine', 'regex-size-limit', 'dfa-size-limit', 'hostname-bin', 'hyperlink-format', 'max-depth', 'field-context-separator'];

/** ripgrep: the pattern (unless `-e`/`-f`) then paths read, `.` by default; `--pre` runs a command. */
export const rgFiles: Extractor = (args, api) => {
  const parsed = parseKnown(args, { short: 'e:f:g:t:T:m:A:B:C:j:M:r:E:d:iIsSvwxFnNlcoqu.LHpUPzab0hV', long: [...RG_FLAGS, ...RG_VALUES.map((v) => `${v}=`)] }, api);
  for (const word of optionValues(parsed, 'f', 'file', 'ignore-file')) api.read(word);
  for (const word of optionValues(parsed, 'pre', 'hostname-bin')) api.unresolved(word, 'ripgrep runs this program on the files, which is not checked');
  const listing = hasOption(parsed, 'files', 'type-list');
  const files = hasOption(parsed, 'e', 'f', 'regexp', 'file') || listing ? parsed.operands : parsed.operands.slice(1);
  if (files.length === 0) files.push(syntheticWord('.'));
  const walks = hasOption(parsed, 'L', 'follow');
  for (const word of files) (walks ? api.walk(word) : api.read(word));
};

/** fd: the pattern then paths read, `.` by default; `--exec` runs a command on what it finds. */
export const fdFiles: Extractor = (args, outer) => {
  const parsed = parseKnown(args, { short: 'HIusigFalL0pd:E:t:e:x:X:c:j:S:o:1qhV', long: ['hidden', 'no-hidden', 'no-ignore', 'ignore', 'no-ignore-vcs', 'ignore-vcs', 'no-ignore-parent', 'unrestricted', 'case-sensitive', 'ignore-case', 'glob', 'regex', 'fixed-strings', 'and=', 'absolute-path', 'relative-path', 'list-details', 'follow', 'no-follow', 'full-path', 'print0', 'max-depth=', 'min-depth=', 'exact-depth=', 'exclude=', 'type=', 'extension=', 'size=', 'changed-within=', 'changed-before=', 'owner=', 'format=', 'exec=', 'exec-batch=', 'color=', 'threads=', 'max-results=', 'quiet', 'show-errors', 'one-file-system', 'prune', 'strip-cwd-prefix?', 'path-separator=', 'search-path=', 'base-directory=', 'ignore-file=', 'hyperlink?', 'batch-size=', 'max-buffer-time='] }, outer);
  let api = outer;
  for (const dir of optionValues(parsed, 'base-directory')) api = api.chdir(dir);
  for (const word of optionValues(parsed, 'ignore-file')) api.read(word);
  if (hasOption(parsed, 'x', 'X', 'exec', 'exec-batch')) api.unresolved('--exec', 'fd runs a command on every path it finds, which is not checked', 'unknown');
  const paths = [...parsed.operands.slice(1), ...optionValues(parsed, 'search-path')];
  if (paths.length === 0) paths.push(syntheticWord('.'));
  for (const word of paths) (hasOption(parsed, 'L', 'follow') ? api.walk(word) : api.read(word));
};

/** ag (the silver searcher): the pattern then paths read, `.` by default; `-f` follows links. */
export const agFiles: Extractor = (args, api) => {
  const parsed = parseKnown(args, { short: 'aA:B:C::cDfFg:G:HilLm:no0p:QrRsStuUvVwz', long: ['ackmate', 'all-types', 'all-text', 'after?', 'before?', 'context?', 'break', 'nobreak', 'count', 'color', 'nocolor', 'color-line-number=', 'color-match=', 'color-path=', 'column', 'nocolumn', 'debug', 'depth=', 'follow', 'fixed-strings', 'literal', 'filename', 'nofilename', 'file-search-regex=', 'files-with-matches', 'files-without-matches', 'group', 'nogroup', 'heading', 'noheading', 'hidden', 'ignore=', 'ignore-dir=', 'ignore-case', 'case-sensitive', 'smart-case', 'invert-match', 'line-numbers', 'list-file-types', 'max-count=', 'multiline', 'nomultiline', 'numbers', 'nonumbers', 'one-device', 'only-matching', 'pager=', 'nopager', 'passthrough', 'passthru', 'path-to-ignore=', 'print-long-lines', 'print0', 'null', 'search-binary', 'search-zip', 'silent', 'skip-vcs-ignores', 'stats', 'stats-only', 'unrestricted', 'vimgrep', 'width=', 'word-regexp', 'workers='] }, api);
  for (const word of optionValues(parsed, 'p', 'path-to-ignore')) api.read(word);
  if (hasOption(parsed, 'pager')) api.unresolved('--pager', 'ag runs the pager, which is not checked', 'unknown');
  const paths = hasOption(parsed, 'g') ? parsed.operands : parsed.operands.slice(1);
  if (paths.length === 0) paths.push(syntheticWord('.'));
  for (const word of paths) (hasOption(parsed, 'f', 'follow') ? api.walk(word) : api.read(word));
};

/** sed: the script (unless `-e`/`-f`) then files read, or written with `-i`; the script's own r/w files are checked, `e` asks. */
export const sedFiles: Extractor = (args, api) => {
  const parsed = parseKnown(args, { short: 'nrsuzEe:f:l:i::', long: ['quiet', 'silent', 'debug', 'expression=', 'file=', 'follow-symlinks', 'in-place?', 'line-length=', 'null-data', 'zero-terminated', 'posix', 'regexp-extended', 'separate', 'sandbox', 'unbuffered', 'binary'] }, api);
  for (const word of optionValues(parsed, 'f', 'file')) api.read(word);
  const fromOptions = hasOption(parsed, 'e', 'f', 'expression', 'file');
  const scripts = fromOptions ? optionValues(parsed, 'e', 'expression') : parsed.operands.slice(0, 1);
  // Several -e scripts are joined by newlines, as sed does.
  if (scripts.some((w) => w.value === null)) api.unresolved(scripts.find((w) => w.value === null) as Word, 'the sed script is only known at run time');
  else if (scripts.length > 0) {
    const effects = parseSedScript(scripts.map((w) => w.value).join('\n'));
    if (typeof effects === 'string') api.unresolved(scripts[0] as Word, effects, 'unknown');
    else {
      for (const file of effects.reads) api.read(syntheticWord(file));
      for (const file of effects.writes) api.write(syntheticWord(file));
      if (effects.runs) api.unresolved(scripts[0] as Word, 'the sed script runs a shell command (e), which is not checked');
    }
  }
  if (hasOption(parsed, 'f', 'file')) api.unresolved('-f', 'a sed script file may read, write or run files, which is not checked');
  const inPlace = hasOption(parsed, 'i', 'in-place');
  const suffix = optionValues(parsed, 'i', 'in-place')[0];
  for (const word of fromOptions ? parsed.operands : parsed.operands.slice(1)) {
    if (inPlace) api.write(word);
    else api.read(word);
    if (suffix !== undefined) backupOf(api, word, suffix);
  }
};

// `sed -iSUFFIX` keeps the original as FILE + SUFFIX, or, when SUFFIX holds `*`, as SUFFIX with each `*` the file's
// name (`-i'bak/*'`): written both from the working directory and from the file's directory.
function backupOf(api: CommandApi, file: Word, suffix: Word): void {
  if (suffix.value === null || file.value === null || file.glob) {
    api.unresolved(suffix, 'where sed -i keeps the backup is only known at run time');
    return;
  }
  if (!suffix.value.includes('*')) {
    api.write(syntheticWord(`${file.value}${suffix.value}`));
    return;
  }
  const name = suffix.value.replaceAll('*', posix.basename(file.value));
  api.write(syntheticWord(name));
  if (!name.startsWith('/')) api.write(syntheticWord(posix.join(posix.dirname(file.value), name)));
}

// awk programs that can run commands or open files by name: system(), pipes, getline, print redirection.
const AWK_RISKY = /system|getline|\||>|ENVIRON|ARGV|ARGC|close|fflush|@load|@include|@namespace|PROCINFO/;

/** awk: the program (unless `-f`) then files read; programs that can write or run commands ask. */
export const awkFiles: Extractor = (args, api) => {
  const parsed = parseKnown(args, { short: 'f:v:F:E:i:l:bcCd::D::e:ghL::MNno::Op::PrsStVW:', long: ['file=', 'assign=', 'field-separator=', 'exec=', 'include=', 'load=', 'source=', 'characters-as-bytes', 'traditional', 'copyright', 'dump-variables?', 'debug?', 'gen-pot', 'lint?', 'bignum', 'use-lc-numeric', 'non-decimal-data', 'optimize', 'pretty-print?', 'profile?', 'posix', 're-interval', 'no-optimize', 'sandbox', 'lint-old', 'csv'] }, api);
  for (const option of parsed.options) {
    if (!['d', 'o', 'p', 'dump-variables', 'pretty-print', 'profile'].includes(option.name)) continue;
    api.write(option.value ?? syntheticWord(option.name === 'd' || option.name === 'dump-variables' ? 'awkvars.out' : option.name === 'o' || option.name === 'pretty-print' ? 'awkprof.out' : 'awkprof.out'));
  }
  if (hasOption(parsed, 'W')) api.unresolved('-W', 'awk -W options are not known to the checker', 'unknown');
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
  const parsed = parseKnown(rest, { short: 'nrjasScCMeRf:L:h', long: ['null-input', 'raw-input', 'slurp', 'compact-output', 'raw-output', 'raw-output0', 'join-output', 'ascii-output', 'sort-keys', 'color-output', 'monochrome-output', 'tab', 'indent=', 'unbuffered', 'stream', 'stream-errors', 'seq', 'from-file=', 'exit-status', 'arg', 'argjson', 'slurpfile', 'rawfile', 'args', 'jsonargs', 'library-path='] }, api);
  for (const word of optionValues(parsed, 'library-path')) api.read(word);
  for (const word of optionValues(parsed, 'f', 'from-file', 'L')) api.read(word);
  const fromFile = hasOption(parsed, 'f', 'from-file');
  const filter = fromFile ? undefined : parsed.operands[0];
  // A filter's import and include load modules from jq's search path (~/.jq, -L), which the check does not follow.
  if (filter?.value !== null && filter?.value !== undefined && /\b(import|include)\b|\bmodulemeta\b/.test(filter.value)) api.unresolved(filter, 'the jq filter loads modules, which are not checked');
  if (fromFile) api.unresolved('-f', 'a jq filter file may load modules, which are not checked', 'unknown');
  for (const word of fromFile ? parsed.operands : parsed.operands.slice(1)) api.read(word);
};

import type { Word } from '../words.js';
import { syntheticWord, type CommandApi, type Extractor } from './api.js';
import { optionValues, parseOptions } from './options.js';

const READ_ONLY = new Set([
  'status', 'log', 'diff', 'show', 'blame', 'grep', 'ls-files', 'ls-tree', 'rev-parse', 'describe', 'shortlog',
  'cat-file', 'rev-list', 'reflog', 'whatchanged', 'help', 'version', 'name-rev', 'merge-base', 'show-ref', 'for-each-ref',
  'count-objects', 'check-ignore', 'var', 'annotate', 'range-diff', 'cherry', 'verify-commit', 'verify-tag', 'fsck',
]);
const WRITING = new Set([
  'add', 'commit', 'checkout', 'switch', 'restore', 'reset', 'rm', 'mv', 'stash', 'merge', 'rebase', 'cherry-pick',
  'revert', 'pull', 'fetch', 'tag', 'branch', 'clean', 'apply', 'am', 'init', 'clone', 'push', 'remote', 'gc', 'notes',
  'worktree', 'bisect', 'sparse-checkout', 'prune', 'repack', 'update-index', 'submodule', 'format-patch', 'archive', 'bundle',
]);
// Configuration keys whose value is a command, a path git runs, or where hooks come from.
const RUNS_SOMETHING = /^(core\.(pager|editor|sshcommand|hookspath|fsmonitor|askpass|gitproxy|worktree)|alias\.|.*\.(command|cmd|helper|program|tool|textconv|process|clean|smudge|driver)$|diff\.external|sequence\.editor|credential\.|filter\.|gpg\.|include\.|includeif\.|protocol\.|uploadpack\.|receive\.|url\.|http\.|remote\..*\.(uploadpack|receivepack|proxy))/i;
const GLOBAL_VALUES = ['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--config-env', '--super-prefix'];
const OUTPUT_OPTIONS = ['o', 'output', 'output-directory'];

/** git: `-C`, `--git-dir`, `--work-tree` and `-c` are checked; the repository is read or written by subcommand. */
export const gitFiles: Extractor = (args, outer) => {
  let api = outer;
  let i = 0;
  for (; i < args.length; i++) {
    const word = args[i] as Word;
    const text = word.value;
    if (text === null || !text.startsWith('-')) break;
    const [name, inline] = splitInline(text);
    const value = inline ?? (GLOBAL_VALUES.includes(name) ? args[++i] : undefined);
    if (name === '-C' && value !== undefined) api = api.chdir(asWord(value));
    else if ((name === '--git-dir' || name === '--work-tree') && value !== undefined) api.write(asWord(value));
    else if (name === '-c' || name === '--config-env') checkConfig(api, value === undefined ? null : asWord(value));
    else if (name === '--exec-path' && inline !== undefined) api.unresolved(word, 'git runs its programs from this directory, which is not checked');
  }
  const sub = args[i];
  const rest = args.slice(i + 1);
  if (sub === undefined) return;
  if (sub.value === null) {
    api.unresolved(sub, 'the git subcommand is only known at run time');
    return;
  }
  checkSubcommand(sub.value, rest, api);
};

function checkSubcommand(sub: string, rest: Word[], api: CommandApi): void {
  const parsed = parseOptions(rest, { short: 'oCc', long: ['output', 'output-directory', 'git-dir', 'work-tree', 'template', 'separate-git-dir', 'reference', 'file'] });
  if (sub === 'config') {
    checkConfigCommand(rest, api);
    return;
  }
  if (!READ_ONLY.has(sub) && !WRITING.has(sub)) {
    api.unknown();
    return;
  }
  const repo = syntheticWord('.');
  if (READ_ONLY.has(sub)) api.read(repo);
  else api.write(repo);
  for (const word of optionValues(parsed, ...OUTPUT_OPTIONS, 'separate-git-dir', 'git-dir', 'work-tree')) api.write(word);
  for (const word of optionValues(parsed, 'template', 'reference', 'file')) api.read(word);
  if ((sub === 'diff' && rest.some((w) => w.value === '--no-index')) || sub === 'apply' || sub === 'am') {
    for (const word of parsed.operands) api.read(word);
  }
  if (sub === 'clone' || sub === 'init') {
    const target = sub === 'clone' ? parsed.operands[1] : parsed.operands[0];
    if (target) api.write(target);
    if (sub === 'clone' && parsed.operands[0]?.value?.startsWith('/')) api.read(parsed.operands[0]);
  }
  if (rest.some((w) => w.value?.startsWith('--exec') || w.value === '-x' || w.value?.startsWith('--upload-pack') || w.value?.startsWith('--receive-pack'))) {
    api.unresolved(sub, `git ${sub} runs a command given on its command line, which is not checked`);
  }
}

function checkConfigCommand(rest: Word[], api: CommandApi): void {
  api.write(syntheticWord('.'));
  const parsed = parseOptions(rest, { short: 'f', long: ['file', 'blob', 'type', 'default', 'comment'] });
  for (const word of optionValues(parsed, 'f', 'file')) api.write(word);
  const key = parsed.operands[0];
  if (key !== undefined && parsed.operands.length > 1) checkConfig(api, key);
  if (parsed.options.some((o) => o.name === 'e' || o.name === 'edit')) api.unresolved('--edit', 'git config --edit runs the editor');
}

function checkConfig(api: CommandApi, setting: Word | null): void {
  if (setting === null || setting.value === null) {
    api.unresolved(setting ?? '-c', 'the git configuration is only known at run time');
  } else if (RUNS_SOMETHING.test(setting.value.split('=')[0] ?? '')) {
    api.unresolved(setting, `the git configuration ${setting.value} makes git run a command or load files, which is not checked`);
  }
}

function splitInline(text: string): [string, string | undefined] {
  if (text.startsWith('--') && text.includes('=')) return [text.slice(0, text.indexOf('=')), text.slice(text.indexOf('=') + 1)];
  if (/^-C./.test(text)) return ['-C', text.slice(2)];
  return [text, undefined];
}

function asWord(value: Word | string): Word {
  return typeof value === 'string' ? syntheticWord(value) : value;
}

import type { Word } from '../words.js';
import { syntheticWord, type CommandApi, type Extractor } from './api.js';
import { optionValues, parseOptions } from './options.js';

const READ_ONLY = new Set([
  'status', 'log', 'diff', 'show', 'blame', 'grep', 'ls-files', 'ls-tree', 'rev-parse', 'describe', 'shortlog',
  'cat-file', 'rev-list', 'reflog', 'whatchanged', 'version', 'name-rev', 'merge-base', 'show-ref', 'for-each-ref',
  'count-objects', 'check-ignore', 'var', 'annotate', 'range-diff', 'cherry', 'verify-commit', 'verify-tag', 'fsck',
]);
const WRITING = new Set([
  'add', 'commit', 'checkout', 'switch', 'restore', 'reset', 'rm', 'mv', 'stash', 'merge', 'rebase', 'cherry-pick',
  'revert', 'pull', 'fetch', 'tag', 'branch', 'clean', 'apply', 'am', 'init', 'clone', 'push', 'remote', 'gc', 'notes',
  'sparse-checkout', 'prune', 'repack', 'update-index', 'format-patch', 'archive',
]);
// Configuration keys whose value is a command, a path git runs, or where hooks come from: never lifted by a rule.
const RUNS_SOMETHING = /^(core\.(pager|editor|sshcommand|hookspath|fsmonitor|askpass|gitproxy|worktree|attributesfile|excludesfile)|alias\.|.*\.(command|cmd|helper|program|tool|textconv|process|clean|smudge|driver|path)$|diff\.external|sequence\.editor|credential\.|filter\.|gpg\.|include\.|includeif\.|protocol\.|uploadpack\.|receive\.|url\.|http\.|remote\.|pager\.|interactive\.|web\.|man\.|browser\.|instaweb\.|submodule\.|safe\.)/i;
// Keys that change only how git formats or records, never what it runs or reads.
const SAFE_CONFIG = /^(user\.(name|email)|author\.(name|email)|committer\.(name|email)|color\.[\w.]+|advice\.\w+|core\.(quotepath|autocrlf|safecrlf|abbrev|ignorecase|filemode)|init\.defaultbranch|commit\.gpgsign|tag\.gpgsign|log\.\w+|diff\.(noprefix|renames|algorithm|context|mnemonicprefix|colormoved)|merge\.(ff|conflictstyle)|pull\.(rebase|ff)|push\.default|column\.ui|status\.\w+|i18n\.\w+|gc\.auto|maintenance\.auto|protocol\.version|format\.pretty)$/i;
const GLOBAL_VALUES = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--config-env', '--super-prefix', '--exec-path', '--list-cmds', '--attr-source']);
const GLOBAL_FLAGS = new Set(['--no-pager', '-P', '--no-replace-objects', '--literal-pathspecs', '--glob-pathspecs', '--noglob-pathspecs', '--icase-pathspecs', '--no-optional-locks', '--no-lazy-fetch', '--no-advice']);
const OUTPUT_OPTIONS = ['o', 'output', 'output-directory'];
// Options of subcommands that run a program named on the command line or a pager/editor.
const RUNS_OPTION = /^--(exec|upload-pack|receive-pack|open-files-in-pager|extcmd|tool|edit-description|interactive)/;
const RUNS_SHORT: Readonly<Record<string, RegExp>> = { grep: /^-[a-zA-Z]*O/, rebase: /^-[a-zA-Z]*[xi]/, clone: /^-[a-zA-Z]*u/, fetch: /^-[a-zA-Z]*u/, pull: /^-[a-zA-Z]*u/ };

/**
 * git: only a known set of subcommands, run in the workspace's own repository (a nested repository's config can
 * run programs), with `-C` and `-c` checked; the repository is read or written by subcommand, option files are
 * checked, and options that run programs ask.
 */
export const gitFiles: Extractor = (args, outer) => {
  let api = outer;
  let i = 0;
  for (; i < args.length; i++) {
    const word = args[i] as Word;
    const text = word.value;
    if (text === null || !text.startsWith('-')) break;
    const [name, inline] = splitInline(text);
    const value = inline ?? (GLOBAL_VALUES.has(name) ? args[++i] : undefined);
    if (name === '-C' && value !== undefined) api = api.chdir(asWord(value));
    else if (name === '-c') checkConfig(api, value === undefined ? null : asWord(value));
    else if (name === '--git-dir' || name === '--work-tree' || name === '--config-env' || name === '--exec-path' || name === '--attr-source') {
      if ((name === '--git-dir' || name === '--work-tree') && value !== undefined) api.write(asWord(value));
      api.unresolved(word, `git ${name} points git at files or programs the check does not follow`);
    } else if (!GLOBAL_FLAGS.has(name) && !GLOBAL_VALUES.has(name)) api.unresolved(word, 'a git option the checker does not know', 'unknown');
  }
  const sub = args[i];
  if (sub === undefined) return;
  if (sub.value === null) {
    api.unresolved(sub, 'the git subcommand is only known at run time');
    return;
  }
  const foreign = api.foreignRepository();
  if (foreign !== null && sub.value !== 'clone' && sub.value !== 'init') api.unresolved(sub, foreign);
  checkSubcommand(sub.value, args.slice(i + 1), api);
};

function checkSubcommand(sub: string, rest: Word[], api: CommandApi): void {
  if (sub === 'config') {
    checkConfigCommand(rest, api);
    return;
  }
  if (!READ_ONLY.has(sub) && !WRITING.has(sub)) {
    api.unknown();
    return;
  }
  const parsed = parseOptions(rest, { short: 'o:F:t:', long: ['output=', 'output-directory=', 'template=', 'separate-git-dir=', 'reference=', 'file=', 'directory=', 'exec=', 'upload-pack=', 'receive-pack='] });
  const repo = syntheticWord('.');
  if (READ_ONLY.has(sub)) api.read(repo);
  else api.write(repo);
  for (const word of optionValues(parsed, ...OUTPUT_OPTIONS, 'separate-git-dir', 'directory')) api.write(word);
  for (const word of optionValues(parsed, 'template', 'reference', 'file', 'F', 't')) api.read(word);
  if ((sub === 'diff' && rest.some((w) => w.value === '--no-index')) || sub === 'apply' || sub === 'am') {
    for (const word of parsed.operands) api.read(word);
  }
  if (sub === 'clone' || sub === 'init') {
    const target = sub === 'clone' ? parsed.operands[1] : parsed.operands[0];
    if (target) api.write(target);
    if (sub === 'clone' && parsed.operands[0]?.value?.startsWith('/')) api.read(parsed.operands[0]);
  }
  for (const word of rest) {
    if (word.value === '--') break;
    if (word.value !== null && (RUNS_OPTION.test(word.value) || RUNS_SHORT[sub]?.test(word.value) === true)) api.unresolved(word, `git ${sub} ${word.value} runs a program or opens an editor, which is not checked`);
  }
}

function checkConfigCommand(rest: Word[], api: CommandApi): void {
  api.write(syntheticWord('.'));
  const parsed = parseOptions(rest, { short: 'f:e', long: ['file=', 'blob=', 'type=', 'default=', 'comment=', 'edit'] });
  for (const word of optionValues(parsed, 'f', 'file')) api.write(word);
  const key = parsed.operands[0];
  if (key !== undefined && parsed.operands.length > 1) checkConfig(api, key);
  if (parsed.options.some((o) => o.name === 'e' || o.name === 'edit')) api.unresolved('--edit', 'git config --edit runs the editor');
}

function checkConfig(api: CommandApi, setting: Word | null): void {
  const key = setting?.value?.split('=')[0] ?? '';
  if (setting === null || setting.value === null) {
    api.unresolved(setting ?? '-c', 'the git configuration is only known at run time');
  } else if (RUNS_SOMETHING.test(key)) {
    api.unresolved(setting, `the git configuration ${setting.value} makes git run a command or load files, which is not checked`);
  } else if (!SAFE_CONFIG.test(key)) {
    api.unresolved(setting, `the git configuration key ${key} is not one the checker knows to be harmless`, 'unknown');
  }
}

function splitInline(text: string): [string, string | undefined] {
  if (text.startsWith('--') && text.includes('=')) return [text.slice(0, text.indexOf('=')), text.slice(text.indexOf('=') + 1)];
  if (/^-[Cc]./.test(text)) return [text.slice(0, 2), text.slice(2)];
  return [text, undefined];
}

function asWord(value: Word | string): Word {
  return typeof value === 'string' ? syntheticWord(value) : value;
}

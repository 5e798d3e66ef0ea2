import { posix } from 'node:path';
import type { Word } from '../words.js';
import { syntheticWord, type CommandApi, type Extractor } from './api.js';
import { copyLike } from './file-ops.js';
import { hasOption, optionValues, parseKnown, parseOptions, type OptionSpec } from './options.js';

const READ_ONLY = new Set([
  'status', 'log', 'diff', 'show', 'blame', 'grep', 'ls-files', 'ls-tree', 'rev-parse', 'describe', 'shortlog',
  'cat-file', 'rev-list', 'reflog', 'whatchanged', 'version', 'name-rev', 'merge-base', 'show-ref', 'for-each-ref',
  'count-objects', 'check-ignore', 'var', 'annotate', 'range-diff', 'cherry', 'verify-commit', 'verify-tag', 'fsck',
]);
const WRITING = new Set([
  'add', 'commit', 'checkout', 'switch', 'restore', 'reset', 'rm', 'mv', 'stash', 'merge', 'rebase', 'cherry-pick',
  'revert', 'pull', 'fetch', 'tag', 'branch', 'clean', 'apply', 'am', 'init', 'clone', 'push', 'remote', 'gc', 'notes',
  'sparse-checkout', 'prune', 'repack', 'update-index', 'format-patch', 'archive', 'worktree', 'submodule',
]);
// Subcommands that write the working tree from the repository's content (or make a repository): what they write,
// and whether it is a link out or a blocked name (a tracked `.vscode/settings.json`, a new nested `.git/config`), is
// only known from the objects, so they ask unless the form is one that leaves the tree alone (see treeWrite).
const TREE_WRITERS = new Set([
  'checkout', 'switch', 'restore', 'reset', 'stash', 'merge', 'rebase', 'cherry-pick', 'revert', 'pull', 'apply', 'am',
  'clone', 'init', 'sparse-checkout', 'worktree', 'submodule', 'clean',
]);
// Subcommands whose operands are all pathspecs (elsewhere only what follows `--` is).
const PATHSPECS = new Set(['add', 'rm', 'blame', 'annotate', 'check-ignore', 'ls-files']);
const GIT_MV: OptionSpec = { short: 'fknv', long: ['force', 'dry-run', 'verbose', 'sparse'] };
const GIT_RM: OptionSpec = { short: 'fnqr', long: ['force', 'dry-run', 'quiet', 'cached', 'ignore-unmatch', 'sparse', 'pathspec-from-file=', 'pathspec-file-nul'] };
// A pathspec git matches itself against the index (a glob, `:(magic)`): what it removes is not a path the check sees.
const GIT_PATHSPEC_PATTERN = /^:|[*?[\\]/;
// Configuration keys whose value is a command, a path git runs, or where hooks come from: never lifted by a rule.
const RUNS_SOMETHING = /^(core\.(pager|editor|sshcommand|hookspath|fsmonitor|askpass|gitproxy|worktree|attributesfile|excludesfile)|alias\.|.*\.(command|cmd|helper|program|tool|textconv|process|clean|smudge|driver|path)$|diff\.external|sequence\.editor|credential\.|filter\.|gpg\.|include\.|includeif\.|protocol\.|uploadpack\.|receive\.|url\.|http\.|remote\.|pager\.|interactive\.|web\.|man\.|browser\.|instaweb\.|submodule\.|safe\.)/i;
// Keys that change only how git formats or records, never what it runs or reads.
const SAFE_CONFIG = /^(user\.(name|email)|author\.(name|email)|committer\.(name|email)|color\.[\w.]+|advice\.\w+|core\.(quotepath|autocrlf|safecrlf|abbrev|ignorecase|filemode)|init\.defaultbranch|commit\.gpgsign|tag\.gpgsign|log\.\w+|diff\.(noprefix|renames|algorithm|context|mnemonicprefix|colormoved)|merge\.(ff|conflictstyle)|pull\.(rebase|ff)|push\.default|column\.ui|status\.\w+|i18n\.\w+|gc\.auto|maintenance\.auto|protocol\.version|format\.pretty)$/i;
const GLOBAL_VALUES = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--config-env', '--super-prefix', '--exec-path', '--list-cmds', '--attr-source']);
const GLOBAL_FLAGS = new Set(['--no-pager', '-P', '--no-replace-objects', '--literal-pathspecs', '--glob-pathspecs', '--noglob-pathspecs', '--icase-pathspecs', '--no-optional-locks', '--no-lazy-fetch', '--no-advice']);
const OUTPUT_OPTIONS = ['o', 'output', 'output-directory'];
// Options of subcommands that run a program named on the command line or a pager/editor: a word that starts with one
// (`--exec=cmd`, `--tool-help`), or any unambiguous prefix of one, as for every long option (`--upl=` is `--upload-pack=`).
const RUNS_OPTIONS = ['--exec', '--upload-pack', '--receive-pack', '--open-files-in-pager', '--extcmd', '--tool', '--edit-description', '--interactive'];
// Short forms in a cluster, after letters or a count (`git grep -1Ocmd` is -C 1, then -O with cmd as the pager).
const RUNS_SHORT: Readonly<Record<string, RegExp>> = { grep: /^-[a-zA-Z0-9]*O/, rebase: /^-[a-zA-Z0-9]*[xi]/, clone: /^-[a-zA-Z0-9]*u/, fetch: /^-[a-zA-Z0-9]*u/, pull: /^-[a-zA-Z0-9]*u/ };

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
      if ((name === '--git-dir' || name === '--work-tree') && value !== undefined) api.write(asWord(value), 'any');
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
  const writes = TREE_WRITERS.has(sub) ? treeWrite(sub, rest) : null;
  if (writes !== null) api.unresolved(sub, `git ${sub} ${writes}, which the check cannot see, so it cannot prove they stay inside and off the blocklist`);
  if (sub === 'mv') copyLike('mv', GIT_MV)(rest, api);
  if (sub === 'rm') removePathspecs(rest, api);
  const short = sub === 'grep' ? 'o:F:t:f:' : sub === 'diff' ? 'o:F:t:O:' : 'o:F:t:';
  const parsed = parseOptions(rest, { short, long: ['output=', 'output-directory=', 'template=', 'separate-git-dir=', 'reference=', 'file=', 'directory=', 'exec=', 'upload-pack=', 'receive-pack=', 'repo=', 'remote=', 'contents=', 'ignore-revs-file=', 'pathspec-from-file=', 'signature-file=', 'add-file=', 'exclude-from='] });
  const repo = syntheticWord('.');
  if (READ_ONLY.has(sub)) api.read(repo);
  else api.write(repo, 'any');
  // `--output`/`-o` is a file (log, show, diff, archive), except format-patch's, a directory like the others here.
  const directories = sub === 'format-patch' ? [...OUTPUT_OPTIONS, 'separate-git-dir', 'directory'] : ['output-directory', 'separate-git-dir', 'directory'];
  for (const word of optionValues(parsed, ...OUTPUT_OPTIONS.filter((name) => !directories.includes(name)))) api.write(word);
  for (const word of optionValues(parsed, ...directories)) api.write(word, 'any');
  const optionFiles = ['template', 'reference', 'file', 'F', 't', 'contents', 'ignore-revs-file', 'pathspec-from-file', 'signature-file', 'add-file', 'exclude-from'];
  for (const word of optionValues(parsed, ...optionFiles, ...(sub === 'grep' ? ['f'] : []), ...(sub === 'diff' ? ['O'] : []))) api.read(word);
  // git diff turns to --no-index by itself when one of two paths lies outside the repository: every operand is read.
  if (sub === 'diff' || sub === 'apply' || sub === 'am') {
    for (const word of parsed.operands) api.read(word);
  } else {
    // git looks at a pathspec on disk before refusing one outside the repository (`git add ../outside/x` stats it).
    const dashes = rest.findIndex((w) => w.value === '--');
    const pathspecs = PATHSPECS.has(sub) ? parsed.operands : dashes === -1 ? [] : rest.slice(dashes + 1);
    for (const word of pathspecs) if (word.value !== null && (word.value.startsWith('/') || word.value.split('/').includes('..'))) api.read(word);
  }
  if (sub === 'clone' || sub === 'init') {
    const target = sub === 'clone' ? parsed.operands[1] : parsed.operands[0];
    if (target) api.write(target, 'any');
    if (sub === 'clone' && parsed.operands[0]) checkLocalRepository(parsed.operands[0], 'read', api);
  }
  // The repositories named on the command line (see checkLocalRepository). For push, fetch and pull every operand:
  // an option the check does not know may take the next word as its value (`--depth 1 /elsewhere`), and
  // `--multiple` makes them all repositories; a refspec or an option's value is not a local path.
  const repositories = sub === 'push' || sub === 'fetch' || sub === 'pull' ? [...parsed.operands, ...optionValues(parsed, 'repo')]
    : sub === 'archive' ? optionValues(parsed, 'remote')
    : sub === 'remote' && ['add', 'set-url'].includes(parsed.operands[0]?.value ?? '') ? parsed.operands.slice(2)
    : [];
  for (const word of repositories) checkLocalRepository(word, sub === 'push' || sub === 'remote' ? 'write' : 'read', api);
  for (const word of rest) {
    if (word.value === '--') break;
    if (word.value === null) api.unresolved(word, `${word.reason}; git may read it as an option (--output, --exec...)`);
    const text = word.value;
    const runs = text !== null && (RUNS_OPTIONS.some((name) => text.startsWith(name) || namesOption(text, name)) || RUNS_SHORT[sub]?.test(text) === true);
    if (runs) api.unresolved(word, `git ${sub} ${text} runs a program or opens an editor, which is not checked`);
  }
}

/**
 * git rm: each pathspec is removed from the working tree (unless `--cached` or `-n`), and so is every directory
 * above it that the removal leaves empty, so a later command of the line must not trust what stood at any of them.
 */
function removePathspecs(rest: Word[], api: CommandApi): void {
  const parsed = parseKnown(rest, GIT_RM, api);
  if (hasOption(parsed, 'cached', 'n', 'dry-run')) return;
  if (hasOption(parsed, 'pathspec-from-file')) {
    api.unresolved('--pathspec-from-file', 'git rm removes the paths a file lists, which the check does not read');
    return;
  }
  const recursive = hasOption(parsed, 'r');
  for (const word of parsed.operands) {
    if (word.value === null) continue;
    if (GIT_PATHSPEC_PATTERN.test(word.value)) {
      api.unresolved(word, 'git matches this pathspec against the index itself, so what it removes is not known');
      continue;
    }
    api.remove(word, recursive);
    for (let dir = posix.dirname(word.value); !['.', '/', '..'].includes(dir) && posix.basename(dir) !== '..'; dir = posix.dirname(dir)) api.remove(syntheticWord(dir), false);
  }
}

// Why the subcommand writes files from the repository, or null for the forms that leave the working tree alone:
// `checkout -b NAME` / `switch -c NAME` (a new branch at HEAD), `restore --staged`, `reset` without --hard/--merge/
// --keep, `stash list|show|create|store`, `apply --check`/`--stat`/`--cached`, `worktree list`, `clean -n`.
function treeWrite(sub: string, rest: Word[]): string | null {
  const words = rest.map((w) => w.value);
  // `has` decides for the safe forms: exact spellings only. `hasAny` decides for the writing forms: git takes any
  // unambiguous prefix of a long option (`--har` is `--hard`), so a prefix counts too.
  const has = (...names: string[]): boolean => words.some((w) => w !== null && names.includes(w));
  const hasAny = (...names: string[]): boolean => words.some((w) => w !== null && names.some((name) => namesOption(w, name)));
  const operands = words.filter((w) => w === null || !w.startsWith('-'));
  const writes = 'writes files named by the repository into the working tree';
  switch (sub) {
    case 'checkout':
    case 'switch': {
      const create = sub === 'checkout' ? ['-b', '-B'] : ['-c', '-C', '--create', '--force-create'];
      const flags = words.filter((w) => w !== null && w.startsWith('-'));
      return flags.length === 1 && create.includes(flags[0] as string) && operands.length === 1 && words[0] === flags[0] ? null : writes;
    }
    case 'restore':
      return has('--staged', '-S') && !hasAny('--worktree', '-W') && !words.some((w) => w === null || /^-[a-zA-Z]*W/.test(w)) ? null : writes;
    case 'reset':
      return hasAny('--hard', '--merge', '--keep', '--recurse-submodules', '-p', '--patch') ? writes : null;
    case 'stash':
      return ['list', 'show', 'create', 'store'].includes(operands[0] ?? '') ? null : writes;
    case 'apply':
      return hasAny('--index', '--3way', '-3', '--apply', '--intent-to-add', '--reject') || !has('--check', '--stat', '--numstat', '--summary', '--cached') ? 'writes the files the patch names into the working tree' : null;
    case 'worktree':
      return operands[0] === 'list' ? null : writes;
    case 'init':
    case 'clone':
      return 'makes a repository (its .git/config and hooks) and checks out files named by the repository';
    case 'clean':
      // Without -f (or with -n) git clean only lists; what it removes (untracked trees, with -ff nested repositories
      // and their blocked .git/config, with -x ignored files) is known only from the index.
      return has('-n', '--dry-run') || !words.some((w) => w === null || namesOption(w, '--force') || /^-[a-zA-Z]*f/.test(w)) ? null : 'removes the untracked files and directories the index does not name (nested repositories with -ff)';
    default:
      return writes;
  }
}

/**
 * The path of a repository operand that is local (`/x`, `../x`, `sub/x`, `file:///x`), or undefined for a remote's
 * name, a network URL or scp-like `host:path`.
 */
function localRepository(word: Word): Word | undefined {
  const text = word.value;
  if (text === null) return undefined;
  if (/^file:\/\//i.test(text)) {
    const rest = text.slice('file://'.length);
    return syntheticWord(rest.startsWith('/') ? rest : rest.slice(Math.max(0, rest.indexOf('/'))));
  }
  if (isUrlLike(text)) return undefined;
  return text.includes('/') || text === '.' || text === '..' ? word : undefined;
}

// A network URL (`https://`, `ssh://`) or scp-like `host:path` (also how a refspec `src:dst` reads).
function isUrlLike(text: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(text) || /^[^/]*:/.test(text);
}

/**
 * A repository named on the command line that is a local path is that path, pushed to (or made a remote's URL)
 * written, fetched from read; and it asks even inside: git follows a gitfile (`gitdir: /elsewhere`), `commondir` or
 * `objects/info/alternates` in it to wherever they point, which the check does not read.
 */
function checkLocalRepository(word: Word, mode: 'read' | 'write', api: CommandApi): void {
  // A name without a slash is a remote's, unless an entry of that name is there: git then takes it as a path.
  const repository = localRepository(word) ?? (word.value !== null && !isUrlLike(word.value) && api.mayExist(word) ? word : undefined);
  if (repository === undefined) return;
  if (mode === 'write') api.write(repository, 'any');
  else api.read(repository);
  api.unresolved(word, 'a local repository can point git elsewhere (a gitfile, commondir, alternates), which the check does not follow');
}

// Whether `word` names the option `name`: as spelled, or (a long option) as a prefix of it, `=value` aside.
function namesOption(word: string, name: string): boolean {
  if (word === name) return true;
  const spelled = word.split('=')[0] ?? word;
  return name.startsWith('--') && spelled.startsWith('--') && spelled.length > 2 && name.startsWith(spelled);
}

function checkConfigCommand(rest: Word[], api: CommandApi): void {
  api.write(syntheticWord('.'), 'any');
  const parsed = parseOptions(rest, { short: 'f:e', long: ['file=', 'blob=', 'type=', 'default=', 'comment=', 'edit', 'global', 'system', 'rename-section', 'remove-section'] });
  for (const scope of ['global', 'system']) {
    if (parsed.options.some((o) => o.name === scope)) api.unresolved(`--${scope}`, `git config --${scope} changes the ${scope === 'global' ? "user's" : "machine's"} git configuration, outside the workspace`);
  }
  // A section renamed or removed changes every key in it at once (`--rename-section color.x core` makes its keys
  // core's, fsmonitor among them): no key is checked there.
  for (const section of ['rename-section', 'remove-section']) {
    if (parsed.options.some((o) => o.name === section)) api.unresolved(`--${section}`, `git config --${section} changes every key of a section, which the check does not follow`);
  }
  for (const word of optionValues(parsed, 'f', 'file')) api.write(word);
  const key = parsed.operands[0];
  if (key !== undefined && parsed.operands.length > 1) checkConfig(api, key);
  if (parsed.options.some((o) => o.name === 'e' || o.name === 'edit')) api.unresolved('--edit', 'git config --edit runs the editor');
  // git 2.46 and later spell the modes as subcommands: `git config edit` runs the editor too (`set`, `unset` and the
  // section ones are checked above as the key they stand in for, which no rule knows, so they ask).
  if (parsed.operands[0]?.value === 'edit') api.unresolved('edit', 'git config edit runs the editor');
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

import { posix } from 'node:path';
import type { Word } from '../words.js';
import { syntheticWord, type CommandApi, type Extractor, type Transfer } from './api.js';
import { hasOption, optionValues, parseKnown, subWord, type OptionSpec, type ParsedArgs } from './options.js';
import { access } from './simple.js';

const REMOVE: OptionSpec = { short: 'dfiIprRv', long: ['force', 'interactive?', 'one-file-system', 'no-preserve-root', 'preserve-root?', 'recursive', 'dir', 'verbose', 'ignore-fail-on-non-empty', 'parents'] };

/** rm, rmdir, unlink: every operand is removed. */
export const removeOperands: Extractor = (args, api) => {
  const parsed = parseKnown(args, REMOVE, api);
  const recursive = hasOption(parsed, 'r', 'R', 'recursive');
  for (const word of parsed.operands) api.remove(word, recursive);
};

const COPY_SPECS: Readonly<Record<'cp' | 'mv' | 'ln', OptionSpec>> = {
  cp: { short: 'abdfHilLnPpRrsS:t:TuvxZ', long: ['archive', 'attributes-only', 'backup?', 'copy-contents', 'debug', 'force', 'interactive', 'link', 'dereference', 'no-clobber', 'no-dereference', 'preserve?', 'no-preserve=', 'parents', 'recursive', 'reflink?', 'remove-destination', 'sparse=', 'strip-trailing-slashes', 'symbolic-link', 'suffix=', 'target-directory=', 'no-target-directory', 'update?', 'verbose', 'keep-directory-symlink', 'one-file-system', 'context?'] },
  mv: { short: 'bfinS:t:TuvZ', long: ['backup?', 'debug', 'exchange', 'force', 'interactive', 'no-clobber', 'no-copy', 'strip-trailing-slashes', 'suffix=', 'target-directory=', 'no-target-directory', 'update?', 'verbose', 'context'] },
  ln: { short: 'bdfFinLPrsS:t:Tv', long: ['backup?', 'directory', 'force', 'interactive', 'logical', 'no-dereference', 'physical', 'relative', 'symbolic', 'suffix=', 'target-directory=', 'no-target-directory', 'verbose'] },
};

/**
 * cp, mv, ln: sources are read (moved sources removed, hard-linked ones written), the destination or `-t DIR` is
 * written. What the line leaves there is tracked for later commands: a symlink made (`ln -s`, `cp -s`) or carried
 * (`mv` or `cp -P`/`-a`/`-r` of a link, links inside a moved or copied tree) is followed by later paths, and every
 * entry of a copied or moved tree is written at its new place (a tree holding `.git/config` cannot land nested).
 */
export function copyLike(kind: 'cp' | 'mv' | 'ln', spec: OptionSpec = COPY_SPECS[kind]): Extractor {
  return (args, api) => {
    const parsed = parseKnown(args, spec, api);
    const targets = optionValues(parsed, 't', 'target-directory');
    const sources = targets.length > 0 || parsed.operands.length < 2 ? parsed.operands : parsed.operands.slice(0, -1);
    // `ln -s T` alone makes the link in the working directory.
    const destination = targets.length > 0 ? targets : kind === 'ln' && parsed.operands.length === 1 ? [syntheticWord('.')] : parsed.operands.slice(sources.length);
    const recursive = kind === 'cp' && hasOption(parsed, 'r', 'R', 'recursive', 'a', 'archive');
    const follow = followed(kind, parsed, recursive);
    const walks = kind === 'cp' && follow === 'all';
    const symbolic = hasOption(parsed, 's', kind === 'ln' ? 'symbolic' : 'symbolic-link');
    const hard = (kind === 'ln' && !symbolic) || (kind === 'cp' && hasOption(parsed, 'l', 'link'));
    const entry = kind === 'ln' && hasOption(parsed, 'n', 'no-dereference');
    const into = targets.length > 0 || sources.length > 1 ? 'yes' : hasOption(parsed, 'T', 'no-target-directory') ? 'no' : entry ? 'auto-entry' : 'auto';
    if (kind === 'ln' && symbolic && hasOption(parsed, 'r', 'relative')) api.unresolved('--relative', 'ln --relative rewrites the target from the working directory, which the check does not follow');
    // GNU cp --parents lands each source at DEST/SOURCE as written, `..` segments replayed below DEST: not the
    // DEST/NAME placement modelled here, so where it writes (a nested .git/hooks, or above the workspace) is not known.
    if (kind === 'cp' && hasOption(parsed, 'parents')) api.unresolved('--parents', 'cp --parents recreates each source path under the destination, which the check does not follow');
    // What lands at the destination is worked out from the tree as it stands before this command changes it.
    for (const dest of destination) {
      for (const word of sources) {
        if (!symbolic) api.transfer(word, dest, { move: kind === 'mv', follow, sources: hard ? 'write' : 'read', into });
        else if (word.value !== null) api.link(dest, word.value, into);
      }
    }
    for (const word of sources) {
      if (kind === 'mv') api.remove(word, true);
      else if (walks) api.walk(word);
      else if (symbolic && kind === 'ln') linkTarget(api, word, destination, into === 'yes');
      // A hard link is the same file under a new name: whoever may write the link writes the source.
      else if (hard) api.write(word);
      else api.read(word);
    }
    // The placements say what lands there (a file, a link, a tree); the destination itself may be a directory.
    for (const word of destination) api.write(word, 'any');
    // A backup renames what was at the destination to NAME + suffix (`cp -b -S rc a .bash` makes .bashrc).
    if (hasOption(parsed, 'b', 'backup', 'S', 'suffix')) {
      const suffix = optionValues(parsed, 'S', 'suffix')[0]?.value ?? '~';
      for (const dest of destination) {
        if (dest.value === null || dest.glob) continue;
        api.write(syntheticWord(`${dest.value}${suffix}`));
        for (const word of into === 'no' ? [] : sources) if (word.value !== null) api.write(syntheticWord(posix.join(dest.value, `${posix.basename(word.value)}${suffix}`)));
      }
    }
  };
}

// Which links a copy follows (the last of -L, -H, -P, -d, -a wins, as in GNU cp): cp follows its operands unless
// copying recursively; mv and ln (GNU ln hard-links a symlink itself unless -L) keep links as links.
function followed(kind: 'cp' | 'mv' | 'ln', parsed: ParsedArgs, recursive: boolean): Transfer['follow'] {
  if (kind === 'mv') return 'none';
  if (kind === 'ln') return hasOption(parsed, 'L', 'logical') ? 'top' : 'none';
  let follow: Transfer['follow'] = recursive ? 'none' : 'top';
  for (const { name } of parsed.options) {
    if (name === 'L' || name === 'dereference') follow = recursive ? 'all' : 'top';
    else if (name === 'H') follow = 'top';
    else if (name === 'P' || name === 'd' || name === 'no-dereference' || name === 'a' || name === 'archive') follow = 'none';
  }
  return follow;
}

// `ln -s T L` stores T as written; the kernel resolves it from L's directory (L itself when it is a directory).
function linkTarget(api: CommandApi, target: Word, destination: Word[], intoDirectory: boolean): void {
  const link = destination[0];
  if (target.value === null || target.value.startsWith('/')) {
    api.read(target);
    return;
  }
  if (link === undefined || link.value === null) {
    api.unresolved(target, 'where the link is made, and so where its target leads, is only known at run time');
    return;
  }
  const linkDir = intoDirectory || api.isDirectory(link) ? link.value : posix.dirname(link.value);
  api.chdir(syntheticWord(linkDir)).read(target);
}

/** sort: operands are read; `-o FILE` is written, `-T DIR` holds temporary files. */
export const sortFiles: Extractor = (args, api) => {
  const parsed = parseKnown(args, { short: 'bcCdfghik:mMno:rRsS:t:T:uVz', long: ['ignore-leading-blanks', 'dictionary-order', 'ignore-case', 'general-numeric-sort', 'ignore-nonprinting', 'month-sort', 'human-numeric-sort', 'numeric-sort', 'random-sort', 'random-source=', 'reverse', 'sort=', 'version-sort', 'batch-size=', 'check?', 'compress-program=', 'debug', 'files0-from=', 'key=', 'merge', 'output=', 'stable', 'buffer-size=', 'field-separator=', 'temporary-directory=', 'parallel=', 'unique', 'zero-terminated'] }, api);
  for (const word of optionValues(parsed, 'o', 'output')) api.write(word);
  for (const word of optionValues(parsed, 'T', 'temporary-directory')) api.write(word, 'any');
  for (const word of optionValues(parsed, 'files0-from', 'random-source')) api.read(word);
  if (hasOption(parsed, 'compress-program')) api.unresolved('--compress-program', 'sort runs the compress program, which is not checked');
  for (const word of parsed.operands) api.read(word);
};

/** uniq: the first operand is read, the second written. */
export const uniqFiles: Extractor = (args, api) => {
  const parsed = parseKnown(args, { short: 'cdDf:is:uw:z', digits: true, long: ['count', 'repeated', 'all-repeated?', 'skip-fields=', 'group?', 'ignore-case', 'skip-chars=', 'unique', 'zero-terminated', 'check-chars='] }, api);
  const [input, output, ...extra] = parsed.operands;
  if (input) api.read(input);
  if (output) api.write(output);
  for (const word of extra) api.read(word);
};

/** sha256sum and friends: operands are read; `-c` reads files named inside a list the check cannot see. */
export const checksumFiles: Extractor = (args, api) => {
  const parsed = parseKnown(args, { short: 'bctwz', long: ['binary', 'check', 'tag', 'text', 'zero', 'ignore-missing', 'quiet', 'status', 'strict', 'warn'] }, api);
  for (const word of parsed.operands) api.read(word);
  if (hasOption(parsed, 'c', 'check')) api.unresolved('-c', 'the check list names files that are read but not checked');
};

/** The unary operators of test and `[[` that look at a file. */
export const FILE_TESTS = new Set(['-e', '-f', '-d', '-r', '-w', '-x', '-s', '-L', '-h', '-b', '-c', '-p', '-S', '-g', '-u', '-k', '-O', '-G', '-N', '-a']);
const FILE_COMPARISONS = new Set(['-nt', '-ot', '-ef']);

/**
 * test and `[`: the operand of a file test (`-f x`) and both sides of `-nt`/`-ot`/`-ef` are read; the operand of
 * `-v` names a variable, whose array subscript bash evaluates (`-v 'a[$(cmd)]'` runs cmd), so one with a subscript,
 * or only known at run time, asks.
 */
export const testFiles: Extractor = (args, api) => {
  const words = args[args.length - 1]?.value === ']' ? args.slice(0, -1) : args;
  words.forEach((word, i) => {
    const previous = words[i - 1]?.value;
    const next = words[i + 1]?.value;
    if (previous === '-v' && (word.value === null || word.value.includes('['))) api.unresolved(word, 'test -v evaluates the array subscript of the name, which may run code');
    if ((previous !== undefined && previous !== null && FILE_TESTS.has(previous) && words.length > 1) || (next && FILE_COMPARISONS.has(next)) || (previous && FILE_COMPARISONS.has(previous))) {
      access(api, 'read', word as Word);
    }
  });
};

const DD_READS = new Set(['if']);
const DD_WRITES = new Set(['of']);
const DD_VALUES = new Set(['bs', 'cbs', 'conv', 'count', 'ibs', 'iflag', 'obs', 'oflag', 'seek', 'oseek', 'skip', 'iseek', 'status']);

/** dd: `if=FILE` is read, `of=FILE` written; every other operand is a known `key=value`, or it asks. */
export const ddFiles: Extractor = (args, api) => {
  for (const word of args) {
    const eq = word.value?.indexOf('=') ?? -1;
    const key = word.value === null ? null : word.value.slice(0, eq);
    if (key === null || eq === -1 || !(DD_READS.has(key) || DD_WRITES.has(key) || DD_VALUES.has(key))) {
      if (word.value === '--help' || word.value === '--version') continue;
      api.unresolved(word, 'a dd operand the checker does not know', word.value === null ? 'path' : 'unknown');
      continue;
    }
    const file = subWord(word, eq + 1);
    // bash expands `~` after the `=` of a word shaped like an assignment, even as an argument (`if=~` is $HOME).
    if ((DD_READS.has(key) || DD_WRITES.has(key)) && /^~|:~/.test(file.value ?? '')) {
      api.unresolved(word, 'bash expands the ~ after = here, to a home directory the check does not follow');
      continue;
    }
    if (DD_READS.has(key)) api.read(file);
    if (DD_WRITES.has(key)) api.write(file);
  }
};

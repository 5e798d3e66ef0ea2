import type { Word } from '../words.js';
import { syntheticWord, type CommandApi, type Extractor } from './api.js';
import { resolveLong } from './options.js';

// Short options of GNU tar that take a value, in bundles (`tar czf out.tgz dir`) or on their own.
const VALUE_FLAGS = 'fCTXbgHKLNVIF';
const KNOWN_FLAGS = 'AcdrtuxzjJZavkmpPhOSWwMBGilosU' + VALUE_FLAGS;
const LONG_FLAGS = ['--create', '--extract', '--get', '--list', '--append', '--update', '--delete', '--catenate', '--concatenate', '--diff', '--compare', '--test-label', '--gzip', '--gunzip', '--ungzip', '--bzip2', '--xz', '--lzip', '--lzma', '--lzop', '--zstd', '--compress', '--uncompress', '--auto-compress', '--no-auto-compress', '--verbose', '--absolute-names', '--dereference', '--no-recursion', '--recursion', '--preserve-permissions', '--same-permissions', '--preserve-order', '--same-order', '--keep-old-files', '--skip-old-files', '--overwrite', '--overwrite-dir', '--no-overwrite-dir', '--keep-newer-files', '--keep-directory-symlink', '--unlink-first', '--recursive-unlink', '--no-same-owner', '--same-owner', '--no-same-permissions', '--numeric-owner', '--one-file-system', '--sparse', '--totals', '--wildcards', '--no-wildcards', '--wildcards-match-slash', '--anchored', '--no-anchored', '--ignore-case', '--no-ignore-case', '--exclude-vcs', '--exclude-vcs-ignores', '--exclude-backups', '--exclude-caches', '--exclude-caches-all', '--exclude-caches-under', '--null', '--no-null', '--verbatim-files-from', '--no-verbatim-files-from', '--show-transformed-names', '--show-stored-names', '--touch', '--utc', '--full-time', '--check-links', '--ignore-zeros', '--ignore-failed-read', '--restrict', '--interactive', '--confirmation', '--remove-files', '--verify', '--multi-volume', '--seek', '--no-seek', '--delay-directory-restore', '--no-delay-directory-restore', '--xattrs', '--no-xattrs', '--acls', '--no-acls', '--selinux', '--no-selinux', '--clamp-mtime', '--block-number', '--force-local', '--to-stdout', '--incremental', '--show-defaults', '--show-omitted-dirs', '--ignore-command-error', '--no-ignore-command-error', '--help', '--version', '--usage'];
const LONG_OPTIONAL = ['--checkpoint', '--backup', '--atime-preserve', '--occurrence', '--warning', '--quoting-style', '--hole-detection', '--sort', '--group-map', '--owner-map', '--pax-option', '--record-size', '--level', '--exclude-tag', '--exclude-tag-all', '--exclude-tag-under', '--exclude-ignore', '--exclude-ignore-recursive', '--add-file', '--rmt-command'];
const LONG_VALUES = new Set(['--file', '--directory', '--files-from', '--exclude-from', '--exclude', '--blocking-factor', '--listed-incremental', '--format', '--starting-file', '--newer', '--after-date', '--label', '--tape-length', '--owner', '--group', '--mode', '--mtime', '--transform', '--xform', '--use-compress-program', '--to-command', '--info-script', '--new-volume-script', '--rsh-command', '--checkpoint-action', '--newer-mtime', '--strip-components', '--suffix', '--backup', '--index-file']);
const RUNS_COMMAND = new Set(['--use-compress-program', '-I', '--to-command', '--info-script', '--new-volume-script', '--rsh-command', '--rmt-command', '--checkpoint-action', '-F']);
const LONGS: ReadonlyMap<string, 'none' | 'required' | 'optional'> = new Map([
  ...LONG_FLAGS.map((n): [string, 'none'] => [n.slice(2), 'none']),
  ...[...LONG_VALUES].map((n): [string, 'required'] => [n.slice(2), 'required']),
  ...LONG_OPTIONAL.map((n): [string, 'optional'] => [n.slice(2), 'optional']),
]);

/**
 * tar: `-f` is the archive (written when creating, read otherwise), `-C` changes directory, `-T`/`-X` are read;
 * creating reads the operands (`--remove-files` removes them); extracting asks unless it writes to stdout (`-O`),
 * since the archive names what is written; options that run programs ask.
 */
export const tarFiles: Extractor = (args, outer) => {
  const options: { name: string; value: Word | undefined }[] = [];
  const operands: Word[] = [];
  for (let i = 0; i < args.length; i++) {
    const word = args[i] as Word;
    const text = word.value;
    if (text === null) {
      outer.unresolved(word, `${word.reason}; tar may read it as an option (--to-command, -I...)`);
      operands.push(word);
    } else if (text === '--') {
      operands.push(...args.slice(i + 1));
      break;
    } else if (text.startsWith('--')) {
      const eq = text.indexOf('=');
      const resolved = resolveLong(text.slice(2, eq === -1 ? undefined : eq), LONGS);
      if (resolved === null) outer.unresolved(word, 'a tar option the checker does not know', 'unknown');
      const name = resolved === null ? text.slice(0, eq === -1 ? undefined : eq) : `--${resolved}`;
      const value = eq !== -1 ? syntheticWord(text.slice(eq + 1)) : LONGS.get(name.slice(2)) === 'required' ? args[++i] : undefined;
      options.push({ name, value });
    } else if (text.startsWith('-') || (i === 0 && /^[A-Za-z]+$/.test(text))) {
      const bundle = text.startsWith('-') ? text.slice(1) : text;
      for (let j = 0; j < bundle.length; j++) {
        const flag = bundle[j] as string;
        if (!KNOWN_FLAGS.includes(flag)) outer.unresolved(word, `tar -${flag} is not an option the checker knows`, 'unknown');
        if (!VALUE_FLAGS.includes(flag)) options.push({ name: `-${flag}`, value: undefined });
        else if (text.startsWith('-') && j + 1 < bundle.length) {
          options.push({ name: `-${flag}`, value: syntheticWord(bundle.slice(j + 1)) });
          break;
        } else options.push({ name: `-${flag}`, value: args[++i] });
      }
    } else {
      operands.push(word);
    }
  }
  checkTar(options, operands, outer);
};

function checkTar(options: { name: string; value: Word | undefined }[], operands: Word[], outer: CommandApi): void {
  const has = (...names: string[]): boolean => options.some((o) => names.includes(o.name));
  const creating = has('-c', '--create', '-r', '--append', '-u', '--update', '--delete', '-A', '--catenate', '--concatenate');
  const extracting = has('-x', '--extract', '--get');
  let api = outer;
  const walks = has('-h', '--dereference');
  for (const { name, value } of options) {
    if ((name === '-f' || name === '--file') && value?.value?.includes(':') === true && !has('--force-local')) outer.unresolved(value, 'tar reads an archive named host:path through a remote shell');
    if (RUNS_COMMAND.has(name)) outer.unresolved(value ?? name, `tar ${name} runs a program, which is not checked`);
    if (value === undefined) continue;
    if (name === '-f' || name === '--file') {
      if (value.value !== '-') (creating ? api.write(value) : api.read(value));
    } else if (name === '-C' || name === '--directory') {
      api = api.chdir(value);
    } else if (['-T', '--files-from', '-X', '--exclude-from'].includes(name)) {
      // tar opens these lists where it started, whatever -C came before; the names in them follow -C.
      outer.read(value);
      api.read(value);
      // A list of names to archive: tar reads each file it names (`../outside/x` as well), and the check sees none.
      if (creating && (name === '-T' || name === '--files-from')) api.unresolved(value, `tar ${name} archives the files its list names, which the check does not read`);
    } else if (['-g', '--listed-incremental', '--index-file'].includes(name)) {
      api.write(value);
    }
  }
  const toStdout = has('-O', '--to-stdout');
  if (extracting && !toStdout) {
    // Member names come from the archive: `../x`, `/abs`, `.bashrc`, a link member then a member written through it.
    api.unresolved(operands[0] ?? '-x', 'tar -x writes the members the archive names (paths, links, blocked names), which the check does not read; -O or -t do not write');
  }
  const removes = creating && has('--remove-files');
  for (const word of operands) {
    if (removes) api.remove(word, true);
    if (creating) (walks ? api.walk(word) : api.read(word));
  }
}

import type { Word } from '../words.js';
import { syntheticWord, type CommandApi, type Extractor } from './api.js';

// Short options of GNU tar that take a value, in bundles (`tar czf out.tgz dir`) or on their own.
const VALUE_FLAGS = 'fCTXbgHKLNVI';
const LONG_VALUES = new Set(['--file', '--directory', '--files-from', '--exclude-from', '--exclude', '--blocking-factor', '--listed-incremental', '--format', '--starting-file', '--newer', '--after-date', '--label', '--tape-length', '--owner', '--group', '--mode', '--mtime', '--transform', '--xform', '--use-compress-program', '--to-command', '--info-script', '--new-volume-script', '--rsh-command', '--checkpoint-action', '--newer-mtime', '--strip-components', '--suffix', '--backup', '--index-file']);
const RUNS_COMMAND = new Set(['--use-compress-program', '-I', '--to-command', '--info-script', '--new-volume-script', '--rsh-command', '--checkpoint-action', '-F']);

/**
 * tar: `-f` is the archive (written when creating, read otherwise), `-C` changes directory, `-T`/`-X` are read;
 * creating reads the operands, extracting writes into the directory; options that run programs ask.
 */
export const tarFiles: Extractor = (args, outer) => {
  const options: { name: string; value: Word | undefined }[] = [];
  const operands: Word[] = [];
  for (let i = 0; i < args.length; i++) {
    const word = args[i] as Word;
    const text = word.value;
    if (text === null) {
      operands.push(word);
    } else if (text.startsWith('--')) {
      const eq = text.indexOf('=');
      const name = eq === -1 ? text : text.slice(0, eq);
      const value = eq !== -1 ? syntheticWord(text.slice(eq + 1)) : LONG_VALUES.has(name) ? args[++i] : undefined;
      options.push({ name, value });
    } else if (text.startsWith('-') || (i === 0 && /^[A-Za-z]+$/.test(text))) {
      const bundle = text.startsWith('-') ? text.slice(1) : text;
      for (let j = 0; j < bundle.length; j++) {
        const flag = bundle[j] as string;
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
  for (const { name, value } of options) {
    if (RUNS_COMMAND.has(name)) outer.unresolved(value ?? name, `tar ${name} runs a program, which is not checked`);
    if (value === undefined) continue;
    if (name === '-f' || name === '--file') {
      if (value.value !== '-') (creating ? api.write(value) : api.read(value));
    } else if (name === '-C' || name === '--directory') {
      api = api.chdir(value);
    } else if (['-T', '--files-from', '-X', '--exclude-from'].includes(name)) {
      api.read(value);
    } else if (['-g', '--listed-incremental', '--index-file'].includes(name)) {
      api.write(value);
    }
  }
  if (extracting && has('-P', '--absolute-names')) api.unresolved('-P', 'tar -P extracts members to absolute paths, which are not checked');
  if (extracting) api.write(syntheticWord('.'));
  for (const word of operands) {
    if (creating) api.read(word);
    else if (extracting) api.write(word);
  }
}

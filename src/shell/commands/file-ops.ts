import type { Word } from '../words.js';
import type { Extractor } from './api.js';
import { hasOption, optionValues, parseOptions } from './options.js';
import { access } from './simple.js';

/** rm, rmdir, unlink: every operand is removed. */
export const removeOperands: Extractor = (args, api) => {
  const parsed = parseOptions(args, {});
  const recursive = hasOption(parsed, 'r', 'R', 'recursive');
  for (const word of parsed.operands) api.remove(word, recursive);
};

/** cp, mv, ln: sources are read (moved sources removed), the destination or `-t DIR` is written. */
export function copyLike(kind: 'cp' | 'mv' | 'ln'): Extractor {
  return (args, api) => {
    const parsed = parseOptions(args, { short: 'tS', long: ['target-directory', 'suffix', 'backup-dir'] });
    const targets = optionValues(parsed, 't', 'target-directory');
    const sources = targets.length > 0 || parsed.operands.length < 2 ? parsed.operands : parsed.operands.slice(0, -1);
    const destination = targets.length > 0 ? targets : parsed.operands.slice(sources.length);
    for (const word of sources) {
      if (kind === 'mv') api.remove(word, true);
      else api.read(word);
    }
    for (const word of destination) api.write(word);
  };
}

/** sort: operands are read; `-o FILE` is written, `-T DIR` holds temporary files. */
export const sortFiles: Extractor = (args, api) => {
  const parsed = parseOptions(args, { short: 'kotST', long: ['key', 'output', 'field-separator', 'buffer-size', 'temporary-directory', 'files0-from', 'parallel', 'batch-size', 'compress-program', 'random-source', 'sort'] });
  for (const word of optionValues(parsed, 'o', 'output', 'T', 'temporary-directory')) api.write(word);
  for (const word of optionValues(parsed, 'files0-from', 'random-source')) api.read(word);
  if (hasOption(parsed, 'compress-program')) api.unresolved('--compress-program', 'sort runs the compress program, which is not checked');
  for (const word of parsed.operands) api.read(word);
};

/** uniq: the first operand is read, the second written. */
export const uniqFiles: Extractor = (args, api) => {
  const parsed = parseOptions(args, { short: 'fsw', long: ['skip-fields', 'skip-chars', 'check-chars', 'group', 'all-repeated'] });
  const [input, output, ...extra] = parsed.operands;
  if (input) api.read(input);
  if (output) api.write(output);
  for (const word of extra) api.read(word);
};

/** sha256sum and friends: operands are read; `-c` reads files named inside a list the check cannot see. */
export const checksumFiles: Extractor = (args, api) => {
  const parsed = parseOptions(args, {});
  for (const word of parsed.operands) api.read(word);
  if (hasOption(parsed, 'c', 'check')) api.unresolved('-c', 'the check list names files that are read but not checked');
};

/** The unary operators of test and `[[` that look at a file. */
export const FILE_TESTS = new Set(['-e', '-f', '-d', '-r', '-w', '-x', '-s', '-L', '-h', '-b', '-c', '-p', '-S', '-g', '-u', '-k', '-O', '-G', '-N', '-a']);
const FILE_COMPARISONS = new Set(['-nt', '-ot', '-ef']);

/** test and `[`: the operand of a file test (`-f x`) and both sides of `-nt`/`-ot`/`-ef` are read. */
export const testFiles: Extractor = (args, api) => {
  const words = args[args.length - 1]?.value === ']' ? args.slice(0, -1) : args;
  words.forEach((word, i) => {
    const previous = words[i - 1]?.value;
    const next = words[i + 1]?.value;
    if ((previous !== undefined && previous !== null && FILE_TESTS.has(previous) && words.length > 1) || (next && FILE_COMPARISONS.has(next)) || (previous && FILE_COMPARISONS.has(previous))) {
      access(api, 'read', word as Word);
    }
  });
};

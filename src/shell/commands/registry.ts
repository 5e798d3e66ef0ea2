import type { Extractor } from './api.js';
import { checksumFiles, copyLike, ddFiles, removeOperands, sortFiles, testFiles, uniqFiles } from './file-ops.js';
import { findFiles } from './find.js';
import { gitFiles } from './git.js';
import { operandsAs, PATH_FREE, READERS, WRITERS } from './simple.js';
import { tarFiles } from './tar.js';
import { agFiles, awkFiles, fdFiles, grepFiles, jqFiles, rgFiles, sedFiles } from './text-tools.js';
import { WRAPPERS } from './wrappers.js';

const pathFree = operandsAs('none');

function buildRegistry(): ReadonlyMap<string, Extractor> {
  const entries: [string, Extractor][] = [
    ...PATH_FREE.map((name): [string, Extractor] => [name, pathFree]),
    ...Object.entries(READERS).map(([name, rule]): [string, Extractor] => [name, operandsAs('read', rule)]),
    ...Object.entries(WRITERS).map(([name, rule]): [string, Extractor] => [name, operandsAs('write', rule)]),
    ...Object.entries(WRAPPERS),
    ...['rm', 'rmdir', 'unlink'].map((name): [string, Extractor] => [name, removeOperands]),
    ...['sha256sum', 'sha1sum', 'sha224sum', 'sha384sum', 'sha512sum', 'md5sum'].map((name): [string, Extractor] => [name, checksumFiles]),
    ['cp', copyLike('cp')],
    ['mv', copyLike('mv')],
    ['ln', copyLike('ln')],
    ['sort', sortFiles],
    ['uniq', uniqFiles],
    ['test', testFiles],
    ['[', testFiles],
    ['find', findFiles],
    ['git', gitFiles],
    ['tar', tarFiles],
    ['grep', grepFiles],
    ['egrep', grepFiles],
    ['fgrep', grepFiles],
    ['rg', rgFiles],
    ['fd', fdFiles],
    ['fdfind', fdFiles],
    ['ag', agFiles],
    ['dd', ddFiles],
    ['sed', sedFiles],
    ['awk', awkFiles],
    ['gawk', awkFiles],
    ['mawk', awkFiles],
    ['jq', jqFiles],
  ];
  return new Map(entries);
}

/** Every command the checker understands, by name, with the extractor that finds its files and inner commands. */
export const COMMANDS: ReadonlyMap<string, Extractor> = buildRegistry();

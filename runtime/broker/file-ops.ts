import fs from 'node:fs';
import type { PlatformPath } from 'node:path';
import { ToolwardenError } from '../../src/errors.js';
import type { BrokeredFile, ChangeStep, DirEntry } from '../../src/protocol.js';
import type { CheckedPath } from '../../src/path-guard/index.js';
import { isProbablyBinary } from '../../src/text/read-format.js';
import { listVerified, openDirectory, openParentForWrite, openVerifiedWithStat, readFileIn, removeFileIn, removeMadeDirectories, statIn, writeFileIn, type VerifiedDir } from '../fs/index.js';
import type { SessionPaths } from './session-paths.js';
import type { WriteQuota } from './write-quota.js';

/** Files larger than this are refused by read_file and edits: they are not text a model can use whole. */
const MAX_TEXT_FILE_BYTES = 64 * 1024 * 1024;

/** Reads a text file through the guard; undefined when it does not exist. */
export function readTextFile(paths: SessionPaths, input: string): BrokeredFile | undefined {
  const opened = paths.openReadableFile(input) ?? openReadable(paths, input);
  if (opened === undefined) return undefined;
  const { fd, stat, path: checked } = opened;
  try {
    if (stat.isDirectory()) throw new ToolwardenError('CONFLICT', `${input} is a directory; use list_dir`);
    if (namesDirectory(input, paths.flavour)) throw notADirectory(input);
    if (stat.size > MAX_TEXT_FILE_BYTES) {
      throw new ToolwardenError('UNSUPPORTED_FILE', `${input} is ${stat.size} bytes, over the ${MAX_TEXT_FILE_BYTES}-byte text limit`);
    }
    const bytes = readOpenedFile(fd, stat.size);
    const binary = isProbablyBinary(bytes);
    return { path: paths.display(checked), text: binary ? '' : bytes.toString('utf8'), binary, size: bytes.length };
  } finally {
    fs.closeSync(fd);
  }
}

/** The guard's way to a readable file: resolved (links followed hop by hop), opened, its descriptor re-checked. */
function openReadable(paths: SessionPaths, input: string): { fd: number; stat: fs.Stats; path: CheckedPath } | undefined {
  const checked = paths.readable(input);
  try {
    return { ...openVerifiedWithStat(checked, 'read', paths.isReadableReal), path: checked };
  } catch (error) {
    if (error instanceof ToolwardenError && error.code === 'NOT_FOUND') return undefined;
    throw error;
  }
}

/** Like {@link readTextFile} but a missing file is NOT_FOUND. */
export function readExistingTextFile(paths: SessionPaths, input: string): BrokeredFile {
  const file = readTextFile(paths, input);
  if (!file) throw new ToolwardenError('NOT_FOUND', `${input} does not exist (resolved inside ${paths.scope.workspaceRoot})`);
  return file;
}

/** Writes a file atomically, creating missing parent directories inside the boundary, all through verified descriptors. */
export async function writeTextFile(paths: SessionPaths, quota: WriteQuota, input: string, content: string): Promise<{ path: string; bytes: number; created: boolean }> {
  const checked = paths.writable(input, 'other');
  if (namesDirectory(input, paths.flavour)) throw new ToolwardenError('CONFLICT', `${input} ends in a slash, so it names a directory; write_file writes files`);
  const bytes = Buffer.byteLength(content, 'utf8');
  quota.check(bytes, input);
  const { created } = await paths.writeExclusively({ writes: [checked] }, async () => {
    const { dir, name } = openParentForWrite(checked, paths.isWritableReal, true);
    try {
      return await writeFileIn(dir, name, content);
    } finally {
      dir.close();
    }
  });
  quota.charge(bytes, input);
  return { path: paths.display(checked), bytes, created };
}

/** Lists a readable directory through its verified descriptor, bounded to `maxEntries`. */
export function listDirectory(paths: SessionPaths, input: string | undefined, maxEntries: number): { path: string; entries: DirEntry[]; truncated: boolean } {
  const checked = paths.readable(input ?? '.');
  let dirents: fs.Dirent[];
  try {
    dirents = listVerified(checked, paths.isReadableReal);
  } catch (error) {
    if (!(error instanceof ToolwardenError)) throw error;
    if (error.code === 'NOT_FOUND') throw new ToolwardenError('NOT_FOUND', `${input ?? '.'} does not exist`);
    if (error.code === 'CONFLICT') throw new ToolwardenError('CONFLICT', `${input} is a file, not a directory; use read_file`);
    throw error;
  }
  dirents.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const entries = dirents.slice(0, maxEntries).map((d): DirEntry => ({ name: d.name, kind: kindOf(d) }));
  return { path: paths.display(checked), entries, truncated: dirents.length > maxEntries };
}

/** Stats a readable path through its verified parent's descriptor; undefined when it does not exist. */
export function statPath(paths: SessionPaths, input: string): { path: string; kind: DirEntry['kind']; size: number; mtimeMs: number } | undefined {
  const checked = paths.readable(input);
  const stat = statChecked(paths, checked);
  if (!stat) return undefined;
  if (namesDirectory(input, paths.flavour) && !stat.isDirectory()) throw notADirectory(input);
  return { path: paths.display(checked), kind: kindOf(stat), size: stat.size, mtimeMs: stat.mtimeMs };
}

/**
 * Applies a multi-file change all-or-nothing: every path is checked for writing before anything changes, each step
 * acts through its verified parent directory's descriptor, and a failure half-way restores what was already changed
 * through those same descriptors, so neither a step nor its rollback can reach outside when a component is swapped.
 */
export async function applyChangeSet(paths: SessionPaths, quota: WriteQuota, steps: readonly ChangeStep[]): Promise<{ written: string[]; deleted: string[] }> {
  const checked = steps.map((step) => ({ step, target: paths.writable(step.path, 'other') }));
  const spelledAsDirectory = steps.find((step) => namesDirectory(step.path, paths.flavour));
  if (spelledAsDirectory) throw new ToolwardenError('CONFLICT', `${spelledAsDirectory.path} ends in a slash, so it names a directory; apply_patch changes files`);
  const bytes = checked.reduce((sum, { step }) => sum + (step.kind === 'write' ? Buffer.byteLength(step.content ?? '', 'utf8') : 0), 0);
  quota.check(bytes, steps.map((s) => s.path).join(', '));
  const writes = checked.filter(({ step }) => step.kind === 'write').map(({ target }) => target);
  const deletes = checked.filter(({ step }) => step.kind === 'delete').map(({ target }) => target);
  await paths.writeExclusively({ writes, deletes }, async () => {
    const opened: VerifiedDir[] = [];
    const undo: (() => Promise<unknown> | void)[] = [];
    const made: string[] = [];
    try {
      for (const { step, target } of checked) {
        const { dir, name } = openParentForWrite(target, paths.isWritableReal, step.kind === 'write', made);
        opened.push(dir);
        const previous = readFileIn(dir, name);
        if (step.kind === 'write') {
          await writeFileIn(dir, name, step.content ?? '');
        } else {
          if (previous === undefined) throw new ToolwardenError('NOT_FOUND', `${step.path} does not exist, so it cannot be deleted`);
          removeFileIn(dir, name);
        }
        undo.push(() => (previous === undefined ? removeFileIn(dir, name) : writeFileIn(dir, name, previous)));
      }
    } catch (error) {
      for (const restore of undo.reverse()) {
        try {
          await restore();
        } catch {
          // Best effort: keep restoring the rest; the original error is what the caller needs.
        }
      }
      removeMadeDirectories(made);
      throw error;
    } finally {
      for (const dir of opened) dir.close();
    }
  });
  quota.charge(bytes, 'apply_patch');
  return {
    written: writes.map((target) => paths.display(target)),
    deleted: deletes.map((target) => paths.display(target)),
  };
}

/**
 * Reads an open regular file whose size is known, without another fstat: the size it had when opened (one read
 * for a small file), or to its end when it reported no size.
 */
function readOpenedFile(fd: number, size: number): Buffer {
  const chunks: Buffer[] = [];
  let total = 0;
  for (let want = Math.max(size, 1); ; want = 64 * 1024) {
    const chunk = Buffer.allocUnsafe(want);
    const read = fs.readSync(fd, chunk, 0, want, null);
    if (read === 0) break;
    chunks.push(read === want ? chunk : chunk.subarray(0, read));
    total += read;
    if (size > 0 && total >= size) break;
    if (total > MAX_TEXT_FILE_BYTES) throw new ToolwardenError('UNSUPPORTED_FILE', `file grew past the ${MAX_TEXT_FILE_BYTES}-byte text limit while it was read`);
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total);
}

// A root itself (or `/`) has no readable parent: it is opened and fstat'ed instead.
function statChecked(paths: SessionPaths, checked: CheckedPath): fs.Stats | undefined {
  const parent = paths.flavour.dirname(checked);
  try {
    if (parent === checked || !paths.isReadableReal(parent)) {
      const { fd, stat } = openVerifiedWithStat(checked, 'read', paths.isReadableReal);
      fs.closeSync(fd);
      return stat;
    }
    const dir = openDirectory(parent, 'allowed', paths.isReadableReal);
    try {
      return statIn(dir, paths.flavour.basename(checked));
    } finally {
      dir.close();
    }
  } catch (error) {
    if (error instanceof ToolwardenError && error.code === 'NOT_FOUND') return undefined;
    throw error;
  }
}

/** Whether the input ends in a separator (or `/.`), which asks the kernel for a directory: `a.txt/` is not a.txt. */
function namesDirectory(input: string, flavour: PlatformPath): boolean {
  return (flavour.sep === '\\' ? /[\\/]\.?$/ : /\/\.?$/).test(input);
}

function notADirectory(input: string): ToolwardenError {
  return new ToolwardenError('CONFLICT', `${input} ends in a slash, so it names a directory, but it is a file (not a directory)`);
}

function kindOf(entry: fs.Dirent | fs.Stats): DirEntry['kind'] {
  if (entry.isSymbolicLink()) return 'symlink';
  if (entry.isDirectory()) return 'dir';
  if (entry.isFile()) return 'file';
  return 'other';
}

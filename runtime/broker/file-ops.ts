import fs from 'node:fs';
import { ToolwardenError } from '../../src/errors.js';
import type { BrokeredFile, ChangeStep, DirEntry } from '../../src/protocol.js';
import { isProbablyBinary } from '../../src/text/read-format.js';
import type { CheckedPath } from '../../src/path-guard/index.js';
import { mkdirVerified, openVerifiedWithStat, removeVerified, writeFileAtomic } from '../fs/index.js';
import type { SessionPaths } from './session-paths.js';
import type { WriteQuota } from './write-quota.js';

/** Files larger than this are refused by read_file and edits: they are not text a model can use whole. */
const MAX_TEXT_FILE_BYTES = 64 * 1024 * 1024;

/** Reads a text file through the guard; undefined when it does not exist. */
export function readTextFile(paths: SessionPaths, input: string): BrokeredFile | undefined {
  const checked = paths.readable(input);
  let opened: { fd: number; stat: fs.Stats };
  try {
    opened = openVerifiedWithStat(checked, 'read', paths.isReadableReal);
  } catch (error) {
    if (error instanceof ToolwardenError && error.code === 'NOT_FOUND') return undefined;
    throw error;
  }
  const { fd, stat } = opened;
  try {
    if (stat.isDirectory()) throw new ToolwardenError('CONFLICT', `${input} is a directory; use list_dir`);
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

/** Like {@link readTextFile} but a missing file is NOT_FOUND. */
export function readExistingTextFile(paths: SessionPaths, input: string): BrokeredFile {
  const file = readTextFile(paths, input);
  if (!file) throw new ToolwardenError('NOT_FOUND', `${input} does not exist (resolved inside ${paths.scope.workspaceRoot})`);
  return file;
}

/** Writes a file atomically, creating missing parent directories inside the boundary. */
export async function writeTextFile(paths: SessionPaths, quota: WriteQuota, input: string, content: string): Promise<{ path: string; bytes: number; created: boolean }> {
  const checked = paths.writable(input);
  const existing = fs.lstatSync(checked, { throwIfNoEntry: false });
  if (existing?.isDirectory()) throw new ToolwardenError('CONFLICT', `${input} is a directory; write_file writes files`);
  const bytes = Buffer.byteLength(content, 'utf8');
  quota.check(bytes, input);
  ensureParent(paths, checked);
  await writeFileAtomic(checked, content, paths.isWritableReal);
  quota.charge(bytes, input);
  return { path: paths.display(checked), bytes, created: existing === undefined };
}

/** Lists a readable directory, bounded to `maxEntries`. */
export function listDirectory(paths: SessionPaths, input: string | undefined, maxEntries: number): { path: string; entries: DirEntry[]; truncated: boolean } {
  const checked = paths.readable(input ?? '.');
  let dirents: fs.Dirent[];
  try {
    dirents = fs.readdirSync(checked, { withFileTypes: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new ToolwardenError('NOT_FOUND', `${input ?? '.'} does not exist`);
    if (code === 'ENOTDIR') throw new ToolwardenError('CONFLICT', `${input} is a file, not a directory; use read_file`);
    throw error;
  }
  dirents.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const entries = dirents.slice(0, maxEntries).map((d): DirEntry => ({ name: d.name, kind: kindOf(d) }));
  return { path: paths.display(checked), entries, truncated: dirents.length > maxEntries };
}

/** Stats a readable path; undefined when it does not exist. */
export function statPath(paths: SessionPaths, input: string): { path: string; kind: DirEntry['kind']; size: number; mtimeMs: number } | undefined {
  const checked = paths.readable(input);
  const stat = fs.lstatSync(checked, { throwIfNoEntry: false });
  if (!stat) return undefined;
  return { path: paths.display(checked), kind: kindOf(stat), size: stat.size, mtimeMs: stat.mtimeMs };
}

/**
 * Applies a multi-file change all-or-nothing: every path is checked for writing before anything changes, and a
 * failure half-way restores what was already changed.
 */
export async function applyChangeSet(paths: SessionPaths, quota: WriteQuota, steps: readonly ChangeStep[]): Promise<{ written: string[]; deleted: string[] }> {
  const checked = steps.map((step) => ({ step, target: paths.writable(step.path) }));
  const bytes = checked.reduce((sum, { step }) => sum + (step.kind === 'write' ? Buffer.byteLength(step.content ?? '', 'utf8') : 0), 0);
  quota.check(bytes, steps.map((s) => s.path).join(', '));
  const undo: (() => Promise<void> | void)[] = [];
  try {
    for (const { step, target } of checked) {
      const previous = fs.existsSync(target) ? fs.readFileSync(target) : undefined;
      if (step.kind === 'write') {
        ensureParent(paths, target);
        await writeFileAtomic(target, step.content ?? '', paths.isWritableReal);
      } else {
        if (previous === undefined) throw new ToolwardenError('NOT_FOUND', `${step.path} does not exist, so it cannot be deleted`);
        removeVerified(target, paths.isWritableReal);
      }
      undo.push(() => (previous === undefined ? fs.rmSync(target, { force: true }) : writeFileAtomic(target, previous, paths.isWritableReal)));
    }
  } catch (error) {
    for (const restore of undo.reverse()) {
      try {
        await restore();
      } catch {
        // Best effort: keep restoring the rest; the original error is what the caller needs.
      }
    }
    throw error;
  }
  quota.charge(bytes, 'apply_patch');
  return {
    written: checked.filter(({ step }) => step.kind === 'write').map(({ target }) => paths.display(target)),
    deleted: checked.filter(({ step }) => step.kind === 'delete').map(({ target }) => paths.display(target)),
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

function ensureParent(paths: SessionPaths, target: CheckedPath): void {
  const parent = paths.flavour.dirname(target);
  if (!fs.existsSync(parent)) mkdirVerified(paths.writable(parent), paths.isWritableReal);
}

function kindOf(entry: fs.Dirent | fs.Stats): DirEntry['kind'] {
  if (entry.isSymbolicLink()) return 'symlink';
  if (entry.isDirectory()) return 'dir';
  if (entry.isFile()) return 'file';
  return 'other';
}

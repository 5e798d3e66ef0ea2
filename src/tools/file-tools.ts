import type { BrokerApi } from '../protocol.js';
import { okResult, type ToolResult } from '../tool-result.js';
import type { BuiltinArgs } from './builtin-schemas.js';
import { readFileResult } from '../text/read-file-result.js';
import { applyEdit } from '../text/edit.js';
import { ToolwardenError } from '../errors.js';
import { unwrap } from '../protocol/broker-reply.js';

/** Settings of the session the file tools need. */
export interface FileToolContext {
  broker: BrokerApi;
  readMaxChars: number;
}

/** read_file: the broker's read (answered with the call when the main thread prefetched it), formatted. */
export async function readFileTool(args: BuiltinArgs<'read_file'>, ctx: FileToolContext): Promise<ToolResult> {
  return readFileResult(args, await unwrap(ctx.broker.readFileStrict(args.path)), ctx.readMaxChars);
}

/** write_file: atomic create or overwrite. */
export async function writeFileTool(args: BuiltinArgs<'write_file'>, ctx: FileToolContext): Promise<ToolResult> {
  const written = await unwrap(ctx.broker.writeFile(args.path, args.content));
  const verb = written.created ? 'Created' : 'Wrote';
  return okResult(`${verb} ${args.path} (${written.bytes} bytes)`, { ...written });
}

/** edit_file: exact replacement, refusing zero or ambiguous matches. */
export async function editFileTool(args: BuiltinArgs<'edit_file'>, ctx: FileToolContext): Promise<ToolResult> {
  const file = await unwrap(ctx.broker.readFileStrict(args.path));
  if (file.binary) throw new ToolwardenError('UNSUPPORTED_FILE', `${args.path} is a binary file; edit_file only edits text`);
  const edited = applyEdit(file.text, args.old_string, args.new_string, args.replace_all ?? false, args.path);
  await unwrap(ctx.broker.writeFile(args.path, edited.content));
  const plural = edited.replacements === 1 ? '' : 's';
  return okResult(`Edited ${args.path}: ${edited.replacements} replacement${plural}`, { path: file.path, replacements: edited.replacements });
}

/** list_dir: one entry a line, directories with a trailing slash and links with @. */
export async function listDirTool(args: BuiltinArgs<'list_dir'>, ctx: FileToolContext): Promise<ToolResult> {
  const listing = await unwrap(ctx.broker.listDir(args.path));
  const suffix = { dir: '/', symlink: '@', file: '', other: '' } as const;
  const lines = listing.entries.map((entry) => `${entry.name}${suffix[entry.kind]}`);
  const note = listing.truncated ? `\n[truncated: only the first ${listing.entries.length} entries are shown; list a subdirectory or use glob]` : '';
  const text = lines.length > 0 ? lines.join('\n') + note : `(${args.path ?? '.'} is empty)`;
  return okResult(text, { path: listing.path, entries: listing.entries, truncated: listing.truncated });
}

/** glob: matching paths, workspace-relative (absolute under a read root), so read_file takes each as-is. */
export async function globTool(args: BuiltinArgs<'glob'>, ctx: FileToolContext): Promise<ToolResult> {
  const found = await unwrap(ctx.broker.glob(args.pattern, args.path));
  const note = found.truncated ? `\n[truncated: more files match; narrow the pattern]` : '';
  const text = found.paths.length > 0 ? found.paths.join('\n') + note : `No files match ${args.pattern}`;
  return okResult(text, { paths: found.paths, truncated: found.truncated });
}

/** grep: `path:line: text` per match. */
export async function grepTool(args: BuiltinArgs<'grep'>, ctx: FileToolContext): Promise<ToolResult> {
  const found = await unwrap(ctx.broker.grep(args));
  const lines = found.matches.map((m) => `${m.path}:${m.line}: ${m.text}`);
  const note = found.truncated ? `\n[truncated: more matches exist; narrow the pattern, path or glob]` : '';
  const text = lines.length > 0 ? lines.join('\n') + note : `No matches for /${args.pattern}/ in ${found.filesScanned} files`;
  return okResult(text, { matches: found.matches, truncated: found.truncated, filesScanned: found.filesScanned });
}

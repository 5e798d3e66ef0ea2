import { ToolwardenError } from '../errors.js';
import type { BrokeredFile } from '../protocol.js';
import { okResult, type ToolResult } from '../tool-result.js';
import { formatReadResult } from './read-format.js';

/** What read_file was asked: the path as given, and the lines to show. */
export interface ReadFileRequest {
  path: string;
  offset?: number | undefined;
  limit?: number | undefined;
}

/**
 * read_file's result from the file the broker read: line-numbered text, truncated at `readMaxChars` with a note on
 * how to read on, and the same text in `structuredContent.text` (a host that reads only structuredContent, Claude
 * Code, would otherwise get no content). The one place it is made, wherever the formatting runs.
 * @throws ToolwardenError UNSUPPORTED_FILE for a binary file, INVALID_ARGS for a bad offset or limit
 */
export function readFileResult(args: ReadFileRequest, file: BrokeredFile, readMaxChars: number): ToolResult {
  if (file.binary) throw new ToolwardenError('UNSUPPORTED_FILE', `${args.path} is a binary file (${file.size} bytes); read_file only shows text`);
  const formatted = formatReadResult(file.text, {
    path: args.path,
    maxChars: readMaxChars,
    ...(args.offset === undefined ? {} : { offset: args.offset }),
    ...(args.limit === undefined ? {} : { limit: args.limit }),
  });
  const structured: Record<string, unknown> = {
    path: file.path,
    totalLines: formatted.totalLines,
    startLine: formatted.startLine,
    endLine: formatted.endLine,
    truncated: formatted.truncated,
  };
  if (formatted.nextOffset !== undefined) structured.nextOffset = formatted.nextOffset;
  structured.text = formatted.text;
  return okResult(formatted.text, structured);
}

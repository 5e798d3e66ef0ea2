import { z } from 'zod';

const path = z.string().describe('File path, relative to the workspace root or absolute');

/** Argument schemas of the built-in tools, keyed by tool name. */
export const BUILTIN_SCHEMAS = {
  read_file: z.strictObject({
    path,
    offset: z.number().int().min(1).optional().describe('1-based line to start at'),
    limit: z.number().int().min(1).optional().describe('Maximum number of lines to return'),
  }),
  write_file: z.strictObject({
    path,
    content: z.string().describe('The full new content of the file'),
  }),
  edit_file: z.strictObject({
    path,
    old_string: z.string().describe('Exact text to replace; must occur once unless replace_all'),
    new_string: z.string().describe('Replacement text'),
    replace_all: z.boolean().optional().describe('Replace every occurrence'),
  }),
  apply_patch: z.strictObject({
    patch: z.string().describe('A `*** Begin Patch` patch (Add/Update/Delete/Move File) or a unified diff'),
  }),
  list_dir: z.strictObject({
    path: path.optional().describe('Directory to list; the workspace root by default'),
  }),
  glob: z.strictObject({
    pattern: z.string().min(1).describe('Glob such as `**/*.ts`'),
    path: path.optional().describe('Directory to search from; the workspace root by default'),
  }),
  grep: z.strictObject({
    pattern: z.string().min(1).describe('JavaScript regular expression'),
    path: path.optional().describe('Directory or file to search; the workspace root by default'),
    glob: z.string().optional().describe('Only search files matching this glob'),
    ignoreCase: z.boolean().optional(),
    maxResults: z.number().int().min(1).optional(),
  }),
  bash: z.strictObject({
    action: z.enum(['exec', 'start', 'status', 'logs', 'write', 'stop', 'list']).optional().describe('Defaults to exec'),
    command: z.string().optional().describe('Shell command (exec, start)'),
    cwd: z.string().optional().describe('Working directory, relative to the workspace root'),
    timeoutMs: z.number().int().min(1).optional().describe('exec only; capped by the session limit'),
    processId: z.string().optional().describe('status, logs, write, stop'),
    offset: z.number().int().min(0).optional().describe('logs: absolute character offset to read from'),
    limit: z.number().int().min(1).optional().describe('logs: maximum characters'),
    input: z.string().optional().describe('write: text for the process stdin'),
  }),
  web_fetch: z.strictObject({
    url: z.string().describe('http or https URL'),
    method: z.string().optional(),
    headers: z.record(z.string(), z.string()).optional(),
    body: z.string().optional(),
    maxBytes: z.number().int().min(1).optional(),
  }),
} as const;

/** Name of a built-in tool. */
export type BuiltinToolName = keyof typeof BUILTIN_SCHEMAS;

/** Arguments of a built-in tool, as its schema parses them. */
export type BuiltinArgs<N extends BuiltinToolName> = z.infer<(typeof BUILTIN_SCHEMAS)[N]>;

/** Every built-in tool name. */
export const BUILTIN_TOOL_NAMES = Object.keys(BUILTIN_SCHEMAS) as BuiltinToolName[];

/** Whether a name is a built-in tool. */
export function isBuiltinTool(name: string): name is BuiltinToolName {
  return Object.hasOwn(BUILTIN_SCHEMAS, name);
}

/**
 * What each built-in tool does, as the model sees it: the one source of the descriptions `listTools()`, the MCP
 * server and the adapters show. Each says what the tool does, its limits (sizes, counts, time, the workspace
 * boundary) and, for bash, every action with its arguments. The numbers are the session defaults (DEFAULT_LIMITS).
 */
export const BUILTIN_DESCRIPTIONS: Record<BuiltinToolName, string> = {
  read_file:
    'Read a UTF-8 text file, each line prefixed with its 1-based number and a tab. path is relative to the workspace root or absolute; ' +
    'only the workspace and the read-only roots are readable, and credential files are blocked. Returns at most 100000 characters ' +
    '(session limit readMaxChars): a longer file is truncated with a note giving the offset to continue from. ' +
    'offset (1-based line) and limit (number of lines) read a window. Binary files are refused with UNSUPPORTED_FILE.',
  write_file:
    'Create or overwrite the file at path with content, atomically (written to a temporary file, then renamed), creating missing parent ' +
    'directories. Only inside the workspace: paths outside it, .git/hooks, credentials and other files that run code later are ' +
    'refused, and the session write quota (writeQuotaBytes, unlimited by default) bounds the bytes written in total.',
  edit_file:
    'Replace old_string with new_string in the text file at path, inside the workspace. old_string must match exactly (whitespace included) ' +
    'and occur exactly once, or the edit is refused saying how many times it occurred; set replace_all to replace every ' +
    'occurrence. Read the file first. Same path rules and write quota as write_file.',
  apply_patch:
    'Apply a multi-file patch: the `*** Begin Patch` format (*** Add File / *** Update File with @@ hunks / *** Delete File / ' +
    '*** Move to) or a unified diff. All-or-nothing: nothing changes unless every hunk applies to the current content. ' +
    'Every touched path must be inside the workspace and not blocked; the write quota applies.',
  list_dir:
    'List one directory (not recursive): one name per line, a trailing / for directories and @ for symlinks. path defaults to the ' +
    'workspace root; only the workspace and the read-only roots are readable. At most 1000 entries (session limit maxResults); ' +
    'the rest are cut with a note. Use glob to find files in a tree.',
  glob:
    'Find files by glob pattern (picomatch: **/*.ts, src/*.{js,ts}), matched against paths relative to path (default: the ' +
    'workspace root). Skips .git and node_modules; follows links only inside the readable roots. Returns workspace-relative paths ' +
    '(absolute under a read-only root), sorted, usable as-is by read_file; at most 1000 (maxResults), cut with a note; ' +
    'the walk ends at the 30 s tool timeout.',
  grep:
    'Search file contents line by line with a JavaScript regular expression (pattern; ignoreCase for case-insensitive). path is a ' +
    'directory or one file (default: the workspace root); glob keeps only matching files (*.ts at any depth, src/** by path). ' +
    'Skips .git, node_modules, binary files and files over 2 MiB. Prints path:line: text with workspace-relative paths usable ' +
    'as-is by read_file; at most maxResults matches (capped at 1000), long lines cut around the match; 30 s tool timeout.',
  bash:
    'Run shell commands in the workspace; each command is checked statically and may be refused or need approval, and runs in ' +
    'the OS sandbox when available (writes only inside the workspace, no network unless granted). action selects what to do: ' +
    'exec (default): run command (cwd: workspace-relative directory) and wait, killed after timeoutMs (default and cap 30 s), ' +
    'returning exitCode, stdout and stderr (200000 characters kept per stream); ' +
    'start: run command in the background and return its processId (at most 8 at once); ' +
    'status: processId -> running or exited, exit code; ' +
    'logs: processId, offset (character offset to read from), limit (characters) -> a page of output (the last 200000 characters are kept); ' +
    'write: processId, input -> text written to its stdin; ' +
    'stop: processId -> SIGTERM, then SIGKILL after 2 s; ' +
    'list: the session\'s background processes.',
  web_fetch:
    'Fetch an http or https url (method, headers, body) and return the status, headers and body as text. Only hosts the session ' +
    'network permission allows, checked again on every redirect; private and loopback addresses are refused unless granted. ' +
    'The body is cut at maxBytes (default and cap 1000000 bytes); the call ends at the 30 s tool timeout.',
};

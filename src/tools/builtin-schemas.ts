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

/** What each built-in tool does, as the model sees it. */
export const BUILTIN_DESCRIPTIONS: Record<BuiltinToolName, string> = {
  read_file: 'Read a text file with line numbers. Long files are truncated with a note saying how to read on (offset/limit).',
  write_file: 'Create or overwrite a file atomically inside the workspace.',
  edit_file: 'Replace old_string with new_string in a file. old_string must match exactly once unless replace_all is set.',
  apply_patch: 'Apply a multi-file patch (`*** Begin Patch` format or unified diff). All-or-nothing: nothing changes unless every hunk applies.',
  list_dir: 'List a directory: names with a trailing / for directories and @ for symlinks.',
  glob: 'Find files by glob pattern, skipping .git and node_modules.',
  grep: 'Search file contents with a regular expression, skipping .git, node_modules and binary files.',
  bash: 'Run shell commands in the workspace: exec (default), or start/status/logs/write/stop/list background processes.',
  web_fetch: 'Fetch an http(s) URL allowed by the session network permission.',
};

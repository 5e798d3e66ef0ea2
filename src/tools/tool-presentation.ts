import type { BuiltinToolName } from './builtin-schemas.js';

/** MCP's tool annotations: hints a client may use to decide how carefully to treat a call. */
export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** A human-readable name for each built-in tool. */
export const BUILTIN_TITLES: Record<BuiltinToolName, string> = {
  read_file: 'Read file',
  write_file: 'Write file',
  edit_file: 'Edit file',
  apply_patch: 'Apply patch',
  list_dir: 'List directory',
  glob: 'Find files',
  grep: 'Search file contents',
  bash: 'Run shell command',
  web_fetch: 'Fetch URL',
};

const integer = { type: 'integer' } as const;
const boolean = { type: 'boolean' } as const;
const string = { type: 'string' } as const;

/**
 * What each built-in tool's result carries in `structuredContent`, as JSON Schema. Open objects with no required
 * field: a failure carries `{ code }` (and, for some, the partial outcome) and clients validate failures too; bash's
 * shape depends on its action.
 */
export const BUILTIN_OUTPUT_SCHEMAS: Record<BuiltinToolName, Record<string, unknown>> = {
  read_file: { type: 'object', properties: { path: string, totalLines: integer, startLine: integer, endLine: integer, truncated: boolean, nextOffset: integer } },
  write_file: { type: 'object', properties: { path: string, bytes: integer, created: boolean } },
  edit_file: { type: 'object', properties: { path: string, replacements: integer } },
  apply_patch: { type: 'object' },
  list_dir: { type: 'object', properties: { path: string, entries: { type: 'array' }, truncated: boolean } },
  glob: { type: 'object', properties: { paths: { type: 'array', items: string }, truncated: boolean } },
  grep: { type: 'object', properties: { matches: { type: 'array' }, truncated: boolean, filesScanned: integer } },
  bash: { type: 'object', description: 'exec: exitCode, stdout, stderr...; start, status, stop: the process snapshot; logs: a page of output; list: processes' },
  web_fetch: { type: 'object', properties: { url: string, finalUrl: string, status: integer, headers: { type: 'object' }, body: string, bodyEncoding: string, truncated: boolean, bytes: integer } },
};

/**
 * Annotations of a built-in tool. File tools are closed-world (the workspace); the read-only ones are idempotent.
 * `write_file` overwrites (destructive, idempotent), `edit_file` and `apply_patch` change content in place. bash may do
 * anything the rules allow and reaches the network only when `net` allows some host; web_fetch is open-world and, since
 * it may send any method, not read-only.
 */
export function builtinAnnotations(name: BuiltinToolName, net: false | readonly string[]): ToolAnnotations {
  const title = BUILTIN_TITLES[name];
  switch (name) {
    case 'read_file':
    case 'list_dir':
    case 'glob':
    case 'grep':
      return { title, readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
    case 'write_file':
      return { title, readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false };
    case 'edit_file':
    case 'apply_patch':
      return { title, readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false };
    case 'bash':
      return { title, readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: net !== false && net.length > 0 };
    case 'web_fetch':
      return { title, readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true };
  }
}

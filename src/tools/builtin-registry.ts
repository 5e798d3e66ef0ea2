import { z } from 'zod';
import type { BrokerRequestType } from '../protocol/broker.js';
import type { CtxFsOp } from '../protocol.js';

/**
 * What the rules see of a call: the path it reads or writes (`required`, or the workspace root when omitted), the paths
 * inside its patch, its simple commands (bash), or its name alone.
 */
export type SubjectSpec = { access: 'read' | 'write'; path: 'required' | 'defaults-to-root' } | { access: 'write'; path: 'in-patch' } | 'commands' | 'name';

/**
 * How a broker request must match the call it serves: the listed fields equal the call's own arguments, every field
 * of the request equals the call's (grep), or each path is one of the call's patch paths (apply_patch).
 */
export type GrantMatch = readonly string[] | 'every-field' | 'patch-paths';

/** MCP-style hints about a tool; `openWorld: 'when-net-allows'` is open only when the capability's `net` allows a host. */
export interface BuiltinHints {
  readOnly: boolean;
  destructive: boolean;
  idempotent: boolean;
  openWorld: boolean | 'when-net-allows';
}

/** Everything that is known of one built-in tool, in one place; every other table derives from these. */
export interface BuiltinToolDescriptor {
  /** A human-readable name. */
  title: string;
  /** What the tool does, as the model sees it: what, its limits, and every argument. */
  description: string;
  /** Its arguments; the one schema validation and listings use. */
  schema: z.ZodObject;
  /**
   * JSON Schema of a successful result's `structuredContent` (open, no required field). It holds every fact the text
   * content shows, payload included (the file text, the entries, the matches, the output), because hosts read one or
   * the other: Claude Code gives the model only `structuredContent`, most others only the text.
   */
  outputSchema: Record<string, unknown>;
  hints: BuiltinHints;
  /** In the read-only profile ({@link readOnlyTools}): a classification for building `tools` lists, not enforcement. */
  readOnlyProfile: boolean;
  subject: SubjectSpec;
  /** The broker requests its worker code may send for one call, each bound to the call's arguments. */
  broker: Partial<Record<BrokerRequestType, GrantMatch>>;
  /** The `ctx.fs` operations of host tools that this tool's rules govern. */
  ctxFs: readonly CtxFsOp[];
  /**
   * Where its code runs: in the session's worker, asking the broker for every I/O, or on the main thread, where its
   * code is the broker's own (bash's process groups, web_fetch's vetted connections) or nothing but the broker's work
   * and a little formatting (the listings and searches, whose walks run in the walk pool): there a hop to the worker
   * and back would cost more than the tool does.
   */
  runsIn: 'worker' | 'main';
  /** The broker request a call certainly makes first, for its `path` argument: answered with the call (one round trip less). */
  prefetch?: 'readFileStrict';
  /**
   * Whether a call can run long enough to be worth progress notifications: always, never, or only for these `action`s
   * (a call without one does `defaultAction`).
   */
  longRunning: boolean | { actions: readonly string[]; defaultAction: string };
}

const path = z.string().describe('File path, relative to the workspace root or absolute');
const integer = { type: 'integer' } as const;
const boolean = { type: 'boolean' } as const;
const string = { type: 'string' } as const;

/**
 * The built-in tools, one descriptor each. The descriptions are the one source `listTools()`, the MCP server and the
 * adapters show; their numbers are the session defaults (DEFAULT_LIMITS). File tools are closed-world (the workspace);
 * the read-only ones are idempotent; `write_file` overwrites (destructive, idempotent), `edit_file` and `apply_patch`
 * change content in place; bash may do anything the rules allow; web_fetch is open-world and, since it may send any
 * method, not read-only. bash and web_fetch run on the main thread, so they ask the broker nothing.
 */
export const BUILTIN_TOOLS = {
  read_file: {
    title: 'Read file',
    description:
      'Read a UTF-8 text file, each line prefixed with its 1-based number and a tab. path is relative to the workspace root or absolute; ' +
      'only the workspace and the read-only roots are readable, and credential files are blocked. Returns at most 100000 characters ' +
      '(session limit readMaxChars): a longer file is truncated with a note giving the offset to continue from. ' +
      'offset (1-based line) and limit (number of lines) read a window. Binary files are refused with UNSUPPORTED_FILE.',
    schema: z.strictObject({
      path,
      offset: z.number().int().min(1).optional().describe('1-based line to start at'),
      limit: z.number().int().min(1).optional().describe('Maximum number of lines to return'),
    }),
    outputSchema: {
      type: 'object',
      properties: {
        path: string,
        totalLines: integer,
        startLine: integer,
        endLine: integer,
        truncated: boolean,
        nextOffset: integer,
        text: { type: 'string', description: 'The numbered lines as the text content shows them, with any note on how to read on' },
      },
    },
    hints: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
    readOnlyProfile: true,
    subject: { access: 'read', path: 'required' },
    broker: { readFileStrict: ['path'] },
    ctxFs: ['readFile', 'stat'],
    runsIn: 'worker',
    prefetch: 'readFileStrict',
    longRunning: false,
  },
  write_file: {
    title: 'Write file',
    description:
      'Create or overwrite the file at path with content, atomically (written to a temporary file, then renamed), creating missing parent ' +
      'directories. Only inside the workspace: paths outside it, .git/hooks, credentials and other files that run code later are ' +
      'refused, and the session write quota (writeQuotaBytes, unlimited by default) bounds the bytes written in total.',
    schema: z.strictObject({
      path,
      content: z.string().describe('The full new content of the file'),
    }),
    outputSchema: { type: 'object', properties: { path: string, bytes: integer, created: boolean } },
    hints: { readOnly: false, destructive: true, idempotent: true, openWorld: false },
    readOnlyProfile: false,
    subject: { access: 'write', path: 'required' },
    broker: { writeFile: ['path', 'content'] },
    ctxFs: ['writeFile'],
    runsIn: 'worker',
    longRunning: false,
  },
  edit_file: {
    title: 'Edit file',
    description:
      'Replace old_string with new_string in the text file at path, inside the workspace. old_string must match exactly (whitespace included) ' +
      'and occur exactly once, or the edit is refused saying how many times it occurred; set replace_all to replace every ' +
      'occurrence. Read the file first. Same path rules and write quota as write_file.',
    schema: z.strictObject({
      path,
      old_string: z.string().describe('Exact text to replace; must occur once unless replace_all'),
      new_string: z.string().describe('Replacement text'),
      replace_all: z.boolean().optional().describe('Replace every occurrence'),
    }),
    outputSchema: { type: 'object', properties: { path: string, replacements: integer } },
    hints: { readOnly: false, destructive: true, idempotent: false, openWorld: false },
    readOnlyProfile: false,
    subject: { access: 'write', path: 'required' },
    broker: { readFileStrict: ['path'], writeFile: ['path'] },
    ctxFs: ['editFile'],
    runsIn: 'worker',
    longRunning: false,
  },
  apply_patch: {
    title: 'Apply patch',
    description:
      'Apply a multi-file patch: the `*** Begin Patch` format (*** Add File / *** Update File with @@ hunks / *** Delete File / ' +
      '*** Move to) or a unified diff. All-or-nothing: nothing changes unless every hunk applies to the current content. ' +
      'Every touched path must be inside the workspace and not blocked; the write quota applies.',
    schema: z.strictObject({
      patch: z.string().describe('A `*** Begin Patch` patch (Add/Update/Delete/Move File) or a unified diff'),
    }),
    outputSchema: { type: 'object', properties: { written: { type: 'array', items: string }, deleted: { type: 'array', items: string } } },
    hints: { readOnly: false, destructive: true, idempotent: false, openWorld: false },
    readOnlyProfile: false,
    subject: { access: 'write', path: 'in-patch' },
    broker: { readFile: 'patch-paths', applyChanges: 'patch-paths' },
    ctxFs: [],
    runsIn: 'worker',
    longRunning: false,
  },
  list_dir: {
    title: 'List directory',
    description:
      'List one directory (not recursive): one name per line, a trailing / for directories and @ for symlinks. path defaults to the ' +
      'workspace root; only the workspace and the read-only roots are readable. At most 1000 entries (session limit maxResults); ' +
      'the rest are cut with a note. Use glob to find files in a tree.',
    schema: z.strictObject({
      path: path.optional().describe('Directory to list; the workspace root by default'),
    }),
    outputSchema: { type: 'object', properties: { path: string, entries: { type: 'array' }, truncated: boolean } },
    hints: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
    readOnlyProfile: false,
    subject: { access: 'read', path: 'defaults-to-root' },
    broker: {},
    ctxFs: ['list'],
    runsIn: 'main',
    longRunning: false,
  },
  glob: {
    title: 'Find files',
    description:
      'Find files by glob pattern (picomatch: **/*.ts, src/*.{js,ts}), matched against paths relative to path (default: the ' +
      'workspace root). Skips .git and node_modules; follows links only inside the readable roots. Returns workspace-relative paths ' +
      '(absolute under a read-only root), sorted, usable as-is by read_file; at most 1000 (maxResults), cut with a note; ' +
      'the walk ends at the 30 s tool timeout.',
    schema: z.strictObject({
      pattern: z.string().min(1).describe('Glob such as `**/*.ts`'),
      path: path.optional().describe('Directory to search from; the workspace root by default'),
    }),
    outputSchema: { type: 'object', properties: { paths: { type: 'array', items: string }, truncated: boolean } },
    hints: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
    readOnlyProfile: true,
    subject: { access: 'read', path: 'defaults-to-root' },
    broker: {},
    ctxFs: ['glob'],
    runsIn: 'main',
    longRunning: true,
  },
  grep: {
    title: 'Search file contents',
    description:
      'Search file contents line by line with a JavaScript regular expression (pattern; ignoreCase for case-insensitive). path is a ' +
      'directory or one file (default: the workspace root); glob keeps only matching files (*.ts at any depth, src/** by path). ' +
      'Skips .git, node_modules, binary files and files over 2 MiB. Prints path:line: text with workspace-relative paths usable ' +
      'as-is by read_file; at most maxResults matches (capped at 1000), long lines cut around the match; 30 s tool timeout.',
    schema: z.strictObject({
      pattern: z.string().min(1).describe('JavaScript regular expression'),
      path: path.optional().describe('Directory or file to search; the workspace root by default'),
      glob: z.string().optional().describe('Only search files matching this glob'),
      ignoreCase: z.boolean().optional(),
      maxResults: z.number().int().min(1).optional(),
    }),
    outputSchema: { type: 'object', properties: { matches: { type: 'array' }, truncated: boolean, filesScanned: integer } },
    hints: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
    readOnlyProfile: true,
    subject: { access: 'read', path: 'defaults-to-root' },
    broker: {},
    ctxFs: ['grep'],
    runsIn: 'main',
    longRunning: true,
  },
  bash: {
    title: 'Run shell command',
    description:
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
    schema: z.strictObject({
      action: z.enum(['exec', 'start', 'status', 'logs', 'write', 'stop', 'list']).optional().describe('Defaults to exec'),
      command: z.string().optional().describe('Shell command (exec, start)'),
      cwd: z.string().optional().describe('Working directory, relative to the workspace root'),
      timeoutMs: z.number().int().min(1).optional().describe('exec only; capped by the session limit'),
      processId: z.string().optional().describe('status, logs, write, stop'),
      offset: z.number().int().min(0).optional().describe('logs: absolute character offset to read from'),
      limit: z.number().int().min(1).optional().describe('logs: maximum characters'),
      input: z.string().optional().describe('write: text for the process stdin'),
    }),
    outputSchema: { type: 'object', description: 'exec: exitCode, stdout, stderr...; start, status, stop: the process snapshot; logs: a page of output; list: processes' },
    hints: { readOnly: false, destructive: true, idempotent: false, openWorld: 'when-net-allows' },
    readOnlyProfile: true,
    subject: 'commands',
    broker: {},
    ctxFs: [],
    runsIn: 'main',
    longRunning: { actions: ['exec'], defaultAction: 'exec' },
  },
  web_fetch: {
    title: 'Fetch URL',
    description:
      'Fetch an http or https url (method, headers, body) and return the status, headers and body as text. Only hosts the session ' +
      'network permission allows, checked again on every redirect; private and loopback addresses are refused unless granted. ' +
      'The body is cut at maxBytes (default and cap 1000000 bytes); the call ends at the 30 s tool timeout.',
    schema: z.strictObject({
      url: z.string().describe('http or https URL'),
      method: z.string().optional(),
      headers: z.record(z.string(), z.string()).optional(),
      body: z.string().optional(),
      maxBytes: z.number().int().min(1).optional(),
    }),
    outputSchema: { type: 'object', properties: { url: string, finalUrl: string, status: integer, headers: { type: 'object' }, body: string, bodyEncoding: string, truncated: boolean, bytes: integer } },
    hints: { readOnly: false, destructive: true, idempotent: false, openWorld: true },
    readOnlyProfile: false,
    subject: 'name',
    broker: {},
    ctxFs: [],
    runsIn: 'main',
    longRunning: false,
  },
} as const satisfies Record<string, BuiltinToolDescriptor>;

import { ToolwardenError } from '../errors.js';
import type { ToolResult } from '../tool-result.js';
import { isMcpToolName } from '../mcp/tool-name.js';

/** Read-only facts about the session a host tool runs in. */
export interface ToolSessionInfo {
  readonly id: string;
  readonly user: string | undefined;
  readonly workspaceRoot: string;
}

/** Options of {@link ToolContext.exec}. */
export interface ExecOptions {
  cwd?: string;
  timeoutMs?: number;
}

/** What {@link ToolContext.exec} resolves with. */
export interface ExecResult {
  stdout: string;
  stderr: string;
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  durationMs: number;
}

/** The brokered file API of a host tool: the same guards as the file tools. */
export interface ToolFs {
  readFile(path: string): Promise<string>;
  writeFile(path: string, content: string): Promise<void>;
  editFile(path: string, oldString: string, newString: string, options?: { replaceAll?: boolean }): Promise<{ replacements: number }>;
  list(path?: string): Promise<{ name: string; kind: 'file' | 'dir' | 'symlink' | 'other' }[]>;
  stat(path: string): Promise<{ kind: 'file' | 'dir' | 'symlink' | 'other'; size: number; mtimeMs: number } | undefined>;
  glob(pattern: string, options?: { path?: string }): Promise<string[]>;
  grep(pattern: string, options?: { path?: string; glob?: string; ignoreCase?: boolean; maxResults?: number }): Promise<{ path: string; line: number; text: string }[]>;
}

/**
 * The only door a host tool has to the outside. Every call is brokered by the main thread and checked against the
 * session's capability; refusals throw a ToolwardenError with the same codes the built-in tools use.
 */
export interface ToolContext {
  readonly fs: ToolFs;
  exec(command: string, options?: ExecOptions): Promise<ExecResult>;
  fetch(url: string, init?: { method?: string; headers?: Record<string, string>; body?: string; maxBytes?: number }): Promise<ToolResult>;
  readonly mcp: { call(tool: string, args?: Record<string, unknown>): Promise<ToolResult> };
  /** Aborted when the call times out or the session closes. */
  readonly signal: AbortSignal;
  /** Writes into the audit stream. */
  log(message: string, data?: unknown): void;
  readonly session: ToolSessionInfo;
}

/** A zod schema (anything with `safeParse`) or a JSON Schema object. */
export type ToolInputSchema = { safeParse(value: unknown): { success: boolean; data?: unknown; error?: unknown } } | Record<string, unknown>;

/** What a host tool may return: a string, a JSON value, or a full ToolResult. */
export type ToolReturn = string | ToolResult | Record<string, unknown> | unknown[] | number | boolean | null | undefined;

/** A host-defined tool, as {@link defineTool} returns it. */
export interface DefinedTool<Args = Record<string, unknown>> {
  readonly kind: 'toolwarden.tool';
  readonly name: string;
  readonly description: string;
  readonly input: ToolInputSchema;
  run(args: Args, ctx: ToolContext): ToolReturn | Promise<ToolReturn>;
}

const TOOL_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

/**
 * Defines a host tool. Export the result from a module named in `createRuntime({ toolModules })`; the tool runs in the
 * session's worker and is visible only to sessions whose `tools` name it.
 * @example
 * export const hello = defineTool({ name: 'hello', description: 'Greets', input: z.object({ who: z.string() }),
 *   run: ({ who }) => `hello ${who}` });
 */
export function defineTool<Args = Record<string, unknown>>(spec: Omit<DefinedTool<Args>, 'kind'>): DefinedTool<Args> {
  if (typeof spec !== 'object' || spec === null) throw new TypeError('defineTool takes { name, description, input, run }');
  if (typeof spec.name !== 'string' || !TOOL_NAME.test(spec.name) || isMcpToolName(spec.name)) {
    throw new TypeError(`defineTool: name '${String(spec.name)}' must match ${TOOL_NAME} and not start with mcp__`);
  }
  if (typeof spec.description !== 'string') throw new TypeError(`defineTool(${spec.name}): description must be a string`);
  if (typeof spec.input !== 'object' || spec.input === null) throw new TypeError(`defineTool(${spec.name}): input must be a zod schema or a JSON Schema object`);
  if (typeof spec.run !== 'function') throw new TypeError(`defineTool(${spec.name}): run must be a function`);
  if (isZod3Schema(spec.input)) {
    throw new ToolwardenError(
      'INVALID_OPTIONS',
      `defineTool(${spec.name}): input is a zod 3 schema; zod 4 required (import { z } from 'zod' with zod >= 4, or 'zod/v4' from zod 3.25), or pass a JSON Schema object`,
    );
  }
  return Object.freeze({ kind: 'toolwarden.tool', name: spec.name, description: spec.description, input: spec.input, run: spec.run });
}

/** A zod 3 schema has `_def` but not zod 4's `_zod`; toolwarden turns schemas into JSON Schema with zod 4 only. */
function isZod3Schema(input: object): boolean {
  return '_def' in input && !('_zod' in input) && typeof (input as { safeParse?: unknown }).safeParse === 'function';
}

/** Whether a module export is a tool made by {@link defineTool}. */
export function isDefinedTool(value: unknown): value is DefinedTool {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'toolwarden.tool';
}

import type { z } from 'zod';
import { BUILTIN_TOOLS, type BuiltinToolDescriptor } from './builtin-registry.js';

/** Name of a built-in tool. */
export type BuiltinToolName = keyof typeof BUILTIN_TOOLS;

/** The built-in tools whose code runs in the session's worker (or tool process), as the registry's `runsIn` says. */
export type WorkerToolName = { [N in BuiltinToolName]: (typeof BUILTIN_TOOLS)[N]['runsIn'] extends 'worker' ? N : never }[BuiltinToolName];

/** The built-in tools whose code is the broker's own and runs on the main thread. */
export type MainThreadToolName = Exclude<BuiltinToolName, WorkerToolName>;

/** Every built-in tool name, in the registry's order. */
export const BUILTIN_TOOL_NAMES = Object.keys(BUILTIN_TOOLS) as BuiltinToolName[];

/** One value per built-in tool, computed from its descriptor. */
export function mapTools<T>(pick: (tool: BuiltinToolDescriptor, name: BuiltinToolName) => T): Record<BuiltinToolName, T> {
  return Object.fromEntries(BUILTIN_TOOL_NAMES.map((name) => [name, pick(BUILTIN_TOOLS[name], name)])) as Record<BuiltinToolName, T>;
}

/** Argument schemas of the built-in tools, keyed by tool name (derived from {@link BUILTIN_TOOLS}). */
export const BUILTIN_SCHEMAS = mapTools((tool) => tool.schema) as { readonly [N in BuiltinToolName]: (typeof BUILTIN_TOOLS)[N]['schema'] };

/** Arguments of a built-in tool, as its schema parses them. */
export type BuiltinArgs<N extends BuiltinToolName> = z.infer<(typeof BUILTIN_TOOLS)[N]['schema']>;

/** What each built-in tool does, as the model sees it (derived from {@link BUILTIN_TOOLS}). */
export const BUILTIN_DESCRIPTIONS: Readonly<Record<BuiltinToolName, string>> = mapTools((tool) => tool.description);

/** Whether a name is a built-in tool. */
export function isBuiltinTool(name: string): name is BuiltinToolName {
  return Object.hasOwn(BUILTIN_TOOLS, name);
}

/** The descriptor of a built-in tool, or `undefined` for any other name. */
export function builtinTool(name: string): BuiltinToolDescriptor | undefined {
  return isBuiltinTool(name) ? BUILTIN_TOOLS[name] : undefined;
}

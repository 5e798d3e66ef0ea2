import { BUILTIN_TOOLS } from './builtin-registry.js';
import { mapTools, type BuiltinToolName } from './builtin-schemas.js';

/** MCP's tool annotations: hints a client may use to decide how carefully to treat a call. */
export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** A human-readable name for each built-in tool (derived from the registry). */
export const BUILTIN_TITLES: Readonly<Record<BuiltinToolName, string>> = mapTools((tool) => tool.title);

/**
 * What each built-in tool's result carries in `structuredContent`, as JSON Schema (derived from the registry). Open
 * objects with no required field: a failure carries `{ code }` (and, for some, the partial outcome) and clients validate
 * failures too; bash's shape depends on its action.
 */
export const BUILTIN_OUTPUT_SCHEMAS: Readonly<Record<BuiltinToolName, Record<string, unknown>>> = mapTools((tool) => tool.outputSchema);

/**
 * Annotations of a built-in tool, from its registry hints. bash reaches the network only when `net` allows some host.
 */
export function builtinAnnotations(name: BuiltinToolName, net: false | readonly string[]): ToolAnnotations {
  const { title, hints } = BUILTIN_TOOLS[name];
  const openWorldHint = hints.openWorld === 'when-net-allows' ? net !== false && net.length > 0 : hints.openWorld;
  return { title, readOnlyHint: hints.readOnly, destructiveHint: hints.destructive, idempotentHint: hints.idempotent, openWorldHint };
}

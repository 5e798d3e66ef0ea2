import { ToolwardenError } from '../errors.js';

/**
 * How much one upstream MCP server may send back, per server (`mcpServers.<id>.limits`). Past a limit the listing or
 * call fails with MCP_ERROR naming it, so a hostile or broken server cannot page forever or fill the host's memory.
 */
export interface McpServerLimits {
  /** `tools/list` pages one listing may take. @default 100 */
  readonly maxPages?: number;
  /** Tools one listing may hold, over all pages. @default 1000 */
  readonly maxTools?: number;
  /** Bytes of one tool's definition as JSON (name, title, description, input and output schemas, annotations). @default 65536 */
  readonly maxSchemaBytes?: number;
  /**
   * Bytes of one tool result as JSON. No single message of the server (a result, a `tools/list` page, an error body)
   * may pass this plus {@link MESSAGE_SLACK_BYTES}: the connection is closed mid-message instead of buffering it.
   * @default 8388608
   */
  readonly maxResultBytes?: number;
}

/** The limits with every default filled in. */
export type ResolvedMcpServerLimits = Required<McpServerLimits>;

/** The default limits of a server that sets none. */
export const DEFAULT_MCP_SERVER_LIMITS: ResolvedMcpServerLimits = Object.freeze({
  maxPages: 100,
  maxTools: 1000,
  maxSchemaBytes: 64 * 1024,
  maxResultBytes: 8 * 1024 * 1024,
});

/** Room a message has beyond `maxResultBytes` for its JSON-RPC envelope, so a result just past the limit is named as such. */
export const MESSAGE_SLACK_BYTES = 1024 * 1024;

const LIMIT_NAMES = Object.keys(DEFAULT_MCP_SERVER_LIMITS) as (keyof McpServerLimits)[];

/**
 * Checks `mcpServers.<id>.limits` and fills in the defaults.
 * @throws ToolwardenError INVALID_OPTIONS naming the field and the rule.
 */
export function resolveMcpServerLimits(id: string, value: unknown): ResolvedMcpServerLimits {
  if (value === undefined) return DEFAULT_MCP_SERVER_LIMITS;
  const where = `mcpServers.${id}.limits`;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ToolwardenError('INVALID_OPTIONS', `${where} must be an object of ${LIMIT_NAMES.join(', ')}`);
  }
  const extra = Reflect.ownKeys(value).find((key) => typeof key !== 'string' || !(LIMIT_NAMES as string[]).includes(key));
  if (extra !== undefined) throw new ToolwardenError('INVALID_OPTIONS', `${where}.${String(extra)} is not a known limit (allowed: ${LIMIT_NAMES.join(', ')})`);
  const resolved: Record<string, number> = { ...DEFAULT_MCP_SERVER_LIMITS };
  for (const name of LIMIT_NAMES) {
    const given = (value as Record<string, unknown>)[name];
    if (given === undefined) continue;
    if (typeof given !== 'number' || !Number.isSafeInteger(given) || given < 1) {
      throw new ToolwardenError('INVALID_OPTIONS', `${where}.${name} must be a positive integer, got ${typeof given === 'number' ? given : typeof given}`);
    }
    resolved[name] = given;
  }
  return Object.freeze(resolved) as ResolvedMcpServerLimits;
}

/** The most bytes one message of the server may have before the connection is closed. */
export function maxMessageBytes(limits: ResolvedMcpServerLimits): number {
  return limits.maxResultBytes + MESSAGE_SLACK_BYTES;
}

/** The error of a server that passed one of its limits; `what` says what it did, in the server's name. */
export function overLimit(serverId: string, limit: keyof McpServerLimits, value: number, what: string): ToolwardenError {
  return new ToolwardenError('MCP_ERROR', `MCP server '${serverId}' ${what}, past limits.${limit} (${value}); raise mcpServers.${serverId}.limits.${limit} if that is expected`);
}

/** UTF-8 bytes of `value` as JSON, as the server sent it (near enough: the wire may hold more escapes). */
export function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');
}

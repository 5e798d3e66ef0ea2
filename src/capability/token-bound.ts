import { ToolwardenError } from '../errors.js';
import { DEFAULT_LIMITS, UNLIMITED_AT_ZERO, type Limits } from '../limits.js';
import { parseMcpEntry } from '../mcp/entries.js';
import type { Credentials } from '../net/egress/credentials.js';
import type { NetPermission } from '../net/net-permission.js';
import { netOutside } from '../net/net-within.js';
import type { BlockedEntry } from '../path-guard/blocklist.js';
import { blockedEntryName } from '../path-guard/blocklist-option.js';
import type { Capability, SandboxMode } from './capability.js';
import { effectiveBlocklist } from './effective-blocklist.js';

/** What a node holds for itself, which no token signed elsewhere may lower or exceed. */
export interface NodeFloor {
  /** The node's sandbox mode: a token may ask for the same or stronger. */
  readonly sandbox: SandboxMode;
  /** The node's host tool modules: a token may load only these (code runs on the node). */
  readonly toolModules: readonly string[];
  /** The node's blocklist: a token may add entries, never lift one. */
  readonly blocklist: readonly BlockedEntry[];
  /** The widest network a token may grant (see `netOutside`: exact hosts need exact node entries). */
  readonly net: NetPermission;
  /** The highest limits a token may set (0, unlimited, of `UNLIMITED_AT_ZERO` only when the node's is 0). */
  readonly limits: Readonly<Limits>;
  /** The node's credentials: a token names one of them and at most its hosts; the value is always the node's. */
  readonly credentials: Credentials;
  /** The MCP server ids the node configures: a token's entries may name only these. */
  readonly mcpServerIds: readonly string[];
}

const SANDBOX_STRENGTH: Readonly<Record<SandboxMode, number>> = { off: 0, auto: 1, required: 2 };

/**
 * Bounds a capability from a token signed by another party (an Ed25519 control plane) by the node's own settings:
 * the tenant bounds tools, MCP entries and paths; this bounds what only the node decides. Its sandbox may not be
 * weaker, its tool modules must be the node's, its blocklist must keep every node entry, it carries no host
 * environment variables, its `net` stays within the node's, every limit is present and at most the node's, its MCP
 * entries name configured servers, and its credentials are references (`{ hosts }`, no value) to credentials the node
 * holds, with hosts within the node's.
 * @throws ToolwardenError ESCALATION naming the field and the node's bound
 */
export function assertTokenWithinNode(capability: Capability, floor: NodeFloor): void {
  if (SANDBOX_STRENGTH[capability.sandbox] < SANDBOX_STRENGTH[floor.sandbox]) {
    throw escalation(`sandbox '${capability.sandbox}' is weaker than this node's '${floor.sandbox}'`);
  }
  const foreign = capability.toolModules.find((module) => !floor.toolModules.includes(module));
  if (foreign !== undefined) throw escalation(`toolModules names ${foreign}, which this node does not load`);
  const kept = new Set(effectiveBlocklist(capability).map(keyOf));
  const lifted = floor.blocklist.find((entry) => !kept.has(keyOf(entry)));
  if (lifted !== undefined) throw escalation(`blockedPaths lifts '${blockedEntryName(lifted)}', which this node blocks`);
  const env = Array.isArray(capability.env) ? capability.env : Object.keys(capability.env);
  if (env.length > 0) throw escalation(`env passes host variables (${env.slice(0, 3).join(', ')}${env.length > 3 ? ', ...' : ''}); a node's environment is not a token's to grant`);
  const wider = netOutside(floor.net, capability.net);
  if (wider !== undefined) throw escalation(`net grants '${wider}' beyond this node's net (${describeNet(floor.net)})`);
  assertLimitsWithin(capability.limits, floor.limits);
  const unknownServer = capability.mcpServers.map(parseMcpEntry).find((entry) => !floor.mcpServerIds.includes(entry.serverId));
  if (unknownServer !== undefined) throw escalation(`mcpServers names server '${unknownServer.serverId}', which this node does not configure (${floor.mcpServerIds.join(', ') || 'none'})`);
  for (const [name, grant] of Object.entries(capability.credentials ?? {})) {
    if ('value' in grant) throw escalation(`credentials.${name} carries a value: a token from another signer names a credential this node holds ({ hosts }), the value is the node's`);
    const held = Object.hasOwn(floor.credentials, name) ? floor.credentials[name] : undefined;
    if (held === undefined) throw escalation(`credentials names '${name}', which this node does not hold (${Object.keys(floor.credentials).join(', ') || 'none'})`);
    const outside = netOutside(held.hosts, grant.hosts);
    if (outside !== undefined) throw escalation(`credentials.${name}.hosts grants '${outside}' beyond this node's hosts for it (${held.hosts.join(', ')})`);
    const places = held.in ?? ['header'];
    const place = (grant.in ?? ['header']).find((p) => !places.includes(p));
    if (place !== undefined) throw escalation(`credentials.${name}.in puts it in '${place}', which this node's credential does not allow (${places.join(', ')})`);
  }
}

/**
 * {@link assertTokenWithinNode}, then the capability the session runs under: each credential the token names gets
 * the node's value, with the token's hosts.
 * @throws ToolwardenError ESCALATION naming the field and the node's bound
 */
export function bindTokenToNode(capability: Capability, floor: NodeFloor): Capability {
  assertTokenWithinNode(capability, floor);
  if (capability.credentials === undefined) return capability;
  const credentials = Object.fromEntries(
    Object.entries(capability.credentials).map(([name, grant]) => [name, { value: floor.credentials[name]?.value ?? '', hosts: [...grant.hosts], ...(grant.in === undefined ? {} : { in: [...grant.in] }) }]),
  );
  return { ...capability, credentials };
}

function assertLimitsWithin(limits: Readonly<Limits>, bound: Readonly<Limits>): void {
  for (const key of Object.keys(DEFAULT_LIMITS) as (keyof Limits)[]) {
    const value: unknown = limits[key];
    const ceiling = bound[key];
    if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw escalation(`limits.${key} is missing or not an integer (this node's is ${ceiling})`);
    const unlimited = UNLIMITED_AT_ZERO.has(key) && value === 0;
    if (UNLIMITED_AT_ZERO.has(key) && ceiling === 0) continue;
    if (unlimited || value > ceiling) throw escalation(`limits.${key}=${value}${unlimited ? ' (unlimited)' : ''} exceeds this node's ${ceiling}`);
  }
}

function describeNet(net: NetPermission): string {
  return net === false || net.length === 0 ? 'none' : net.join(', ');
}

function keyOf(entry: BlockedEntry): string {
  return `${entry.depth}:${entry.only ?? 'all'}:${entry.segments.join('/').toLowerCase()}`;
}

function escalation(message: string): ToolwardenError {
  return new ToolwardenError('ESCALATION', `a token from another signer asks more than this node allows: ${message}`);
}

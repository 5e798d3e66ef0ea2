import { ToolwardenError } from '../errors.js';
import type { BlockedEntry } from '../path-guard/blocklist.js';
import type { Capability, SandboxMode } from './capability.js';
import { effectiveBlocklist } from './effective-blocklist.js';

/** What a node holds for itself, which no token signed elsewhere may lower. */
export interface NodeFloor {
  /** The node's sandbox mode: a token may ask for the same or stronger. */
  readonly sandbox: SandboxMode;
  /** The node's host tool modules: a token may load only these (code runs on the node). */
  readonly toolModules: readonly string[];
  /** The node's blocklist: a token may add entries, never lift one. */
  readonly blocklist: readonly BlockedEntry[];
}

const SANDBOX_STRENGTH: Readonly<Record<SandboxMode, number>> = { off: 0, auto: 1, required: 2 };

/**
 * Bounds a capability from a token signed by another party (an Ed25519 control plane) by the node's own settings:
 * the tenant bounds tools, MCP servers and paths; this bounds what only the node decides. Its sandbox may not be weaker,
 * its tool modules must be the node's, its blocklist must keep every node entry, and it carries no host environment
 * variables (the environment of the node's commands is the node's).
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
  if (lifted !== undefined) throw escalation(`blockedPaths lifts '${lifted.segments.join('/')}', which this node blocks`);
  const env = Array.isArray(capability.env) ? capability.env : Object.keys(capability.env);
  if (env.length > 0) throw escalation(`env passes host variables (${env.slice(0, 3).join(', ')}${env.length > 3 ? ', ...' : ''}); a node's environment is not a token's to grant`);
}

function keyOf(entry: BlockedEntry): string {
  return `${entry.depth}:${entry.segments.join('/').toLowerCase()}`;
}

function escalation(message: string): ToolwardenError {
  return new ToolwardenError('ESCALATION', `a token from another signer asks more than this node allows: ${message}`);
}

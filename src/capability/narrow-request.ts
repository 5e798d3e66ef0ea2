import { ToolwardenError } from '../errors.js';
import type { Limits } from '../limits.js';
import type { BlockedPathsOption } from '../path-guard/blocklist-option.js';
import type { PermissionSpec, SandboxMode } from './capability.js';
import { CAPABILITY_FIELDS, type CapabilityField, type FieldSpec } from './fields.js';
import { rejectUnknownKeys, requirePlainObject } from './plain-object.js';

/** What a child session asks for; every field is optional and defaults to the parent's value. */
export interface NarrowRequest {
  /** A subset of the parent's tools. */
  tools?: readonly string[];
  /** The parent's workspace or a directory inside it that the parent may write. */
  workspaceRoot?: string;
  /** Read roots readable to the parent. The parent's read-only roots the child could write into are kept. */
  readRoots?: readonly string[];
  /** Only `false` unless the parent has `true`. */
  allowOutsideWorkspace?: boolean;
  /** More excluded paths, relative to the child's root; the parent's are always kept. */
  excludedPaths?: readonly string[];
  /** A subset of the parent's MCP entries. */
  mcpServers?: readonly string[];
  /** Lower limits only. */
  limits?: Partial<Limits>;
  /** A further rule layer; the parent's layers all stay. */
  permissions?: PermissionSpec;
  /** As strict as the parent's or stricter (`off` < `auto` < `required`). */
  sandbox?: SandboxMode;
  /** `false`, or a subset of the parent's hosts. */
  net?: false | readonly string[];
  /** The names of the parent's credentials to keep (values and hosts are the parent's). @default all of them */
  credentials?: readonly string[];
  /** A subset of the parent's environment names. */
  env?: readonly string[];
  /** The parent's isolation or `'process'` (stronger than `'worker'`). */
  isolation?: 'worker' | 'process';
  /** More blocked entries (`add`); `remove` of an entry the parent has is ESCALATION. */
  blockedPaths?: BlockedPathsOption;
  /** The parent's user; a child cannot act for another. */
  user?: string;
  /** The parent's value; a child cannot change it. */
  shellEncoding?: string;
  /** The parent's modules; a child cannot load others. */
  toolModules?: readonly string[];
  /** Lifetime of the child's token, in seconds; never past the parent's. @default the parent's remaining lifetime, at most 3600 */
  ttlSeconds?: number;
}

/** Every key {@link NarrowRequest} has, derived from the field table plus `ttlSeconds`: anything else is a typo. */
export const NARROW_REQUEST_KEYS: ReadonlySet<string> = new Set<string>([...(Object.keys(CAPABILITY_FIELDS) as CapabilityField[]), 'ttlSeconds'] satisfies (keyof NarrowRequest)[]);

/**
 * Checks an attenuation request once, at the boundary: a plain object with known keys only (`tool`, `__proto__` and
 * `constructor` are refused by name), each value shape-checked and parsed by its field's `request`
 * ({@link CAPABILITY_FIELDS}). Whether each value narrows is {@link narrowCapability}'s decision.
 * @throws ToolwardenError `INVALID_OPTIONS` naming the key
 */
export function parseNarrowRequest(value: unknown): NarrowRequest {
  const raw = requirePlainObject(value, 'attenuate(request)');
  rejectUnknownKeys(raw, NARROW_REQUEST_KEYS, 'attenuate');
  const request: Record<string, unknown> = {};
  for (const [key, given] of Object.entries(raw)) {
    if (given === undefined) continue;
    if (key === 'ttlSeconds') request[key] = parseTtl(given);
    else request[key] = (CAPABILITY_FIELDS[key as CapabilityField] as FieldSpec<CapabilityField>).request(given);
  }
  return request as NarrowRequest;
}

function parseTtl(ttl: unknown): number {
  if (typeof ttl !== 'number' || !Number.isSafeInteger(ttl) || ttl < 1) throw new ToolwardenError('INVALID_OPTIONS', `attenuate ttlSeconds must be an integer >= 1, got ${String(ttl)}`);
  return ttl;
}

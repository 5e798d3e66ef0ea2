import { ToolwardenError } from '../errors.js';
import type { Limits } from '../limits.js';
import { SANDBOX_MODES } from '../sandbox/types.js';
import type { BlockedPathsOption } from '../path-guard/blocklist-option.js';
import type { PermissionSpec, SandboxMode } from './capability.js';
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

/** Every key {@link NarrowRequest} has: anything else is a typo and must not pass silently. */
export const NARROW_REQUEST_KEYS: ReadonlySet<string> = new Set([
  'tools', 'workspaceRoot', 'readRoots', 'allowOutsideWorkspace', 'excludedPaths', 'mcpServers', 'limits', 'permissions',
  'sandbox', 'net', 'credentials', 'env', 'isolation', 'blockedPaths', 'user', 'shellEncoding', 'toolModules', 'ttlSeconds',
] satisfies (keyof NarrowRequest)[]);

/**
 * Checks the shape of an attenuation request: a plain object with known keys only (`tool`, `__proto__` and
 * `constructor` are refused by name) and values of the right type. Whether each value narrows is
 * {@link narrowCapability}'s decision.
 * @throws ToolwardenError `INVALID_OPTIONS` naming the key
 */
export function parseNarrowRequest(value: unknown): NarrowRequest {
  const raw = requirePlainObject(value, 'attenuate(request)');
  rejectUnknownKeys(raw, NARROW_REQUEST_KEYS, 'attenuate');
  const request = { ...raw } as Record<string, unknown>;
  for (const key of ['tools', 'readRoots', 'excludedPaths', 'mcpServers', 'env', 'toolModules', 'credentials'] as const) {
    if (request[key] !== undefined) stringArray(request[key], key);
  }
  for (const key of ['workspaceRoot', 'user', 'shellEncoding'] as const) {
    const v = request[key];
    if (v !== undefined && (typeof v !== 'string' || v === '' || v.includes('\0'))) invalid(`attenuate ${key} must be a non-empty string`);
  }
  if (request['allowOutsideWorkspace'] !== undefined && typeof request['allowOutsideWorkspace'] !== 'boolean') invalid('attenuate allowOutsideWorkspace must be a boolean');
  if (request['net'] !== undefined && request['net'] !== false) stringArray(request['net'], 'net');
  if (request['sandbox'] !== undefined && !(SANDBOX_MODES as readonly unknown[]).includes(request['sandbox'])) {
    invalid(`attenuate sandbox must be 'auto', 'required' or 'off', got ${JSON.stringify(request['sandbox'])}`);
  }
  if (request['isolation'] !== undefined && request['isolation'] !== 'worker' && request['isolation'] !== 'process') {
    invalid(`attenuate isolation must be 'worker' or 'process', got ${JSON.stringify(request['isolation'])}`);
  }
  const ttl = request['ttlSeconds'];
  if (ttl !== undefined && (typeof ttl !== 'number' || !Number.isSafeInteger(ttl) || ttl < 1)) invalid(`attenuate ttlSeconds must be an integer >= 1, got ${String(ttl)}`);
  return request as NarrowRequest;
}

function stringArray(value: unknown, key: string): void {
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string' || item.length === 0 || item.includes('\0'))) {
    invalid(`attenuate ${key} must be an array of non-empty strings`);
  }
}

function invalid(message: string): never {
  throw new ToolwardenError('INVALID_OPTIONS', message);
}

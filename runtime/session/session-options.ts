import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { ToolwardenError } from '../../src/errors.js';
import type { Limits } from '../../src/limits.js';
import type { Capability, PermissionSpec, SandboxMode } from '../../src/capability/capability.js';
import { parseCapabilityFields, type CapabilityDefaults } from '../../src/capability/fields.js';
import { requireNonEmpty } from '../../src/capability/parse-values.js';
import { rejectUnknownKeys, requirePlainObject } from '../../src/capability/plain-object.js';
import type { BlockedPathsOption } from '../../src/path-guard/blocklist-option.js';

/** Options of {@link Runtime.openSession} and {@link Runtime.mintToken}. */
export interface SessionOptions {
  /** Workspace root, absolute or relative to the process cwd; must exist. Required unless `token` is given. */
  workspaceRoot?: string;
  /** Tools the session may see and call. Closed by default: omitted or [] exposes nothing. */
  tools?: readonly string[];
  /** Extra read-only roots. @default [] */
  readRoots?: readonly string[];
  /** Let paths outside the workspace through the boundary check (the blocklist still applies). @default false */
  allowOutsideWorkspace?: boolean;
  /** Workspace-relative paths refused for writing. @default ['.git'] */
  excludedPaths?: readonly string[];
  /** Per-session limits; see {@link Limits}. */
  limits?: Partial<Limits>;
  /** A token from {@link Runtime.mintToken}; when given, no other capability option may be. */
  token?: string;
  /** The user the session acts for (tenants, MCP credentials, audit). */
  user?: string;
  /** MCP entries: `'id'`, `'id:tool'`, `'id:pattern*'`. Closed by default. */
  mcpServers?: readonly string[];
  /** This session's permission rules (a second gate after the host's). */
  permissions?: PermissionSpec;
  /** OS sandbox for shell commands. @default the runtime's default, 'auto' */
  sandbox?: SandboxMode;
  /** Network permission: false or allowed hosts. @default false */
  net?: false | readonly string[];
  /**
   * Credentials by environment name: commands see `NAME` set to a placeholder, and the egress proxy puts the value
   * in requests to `hosts` only. `mintToken` of a runtime with an Ed25519 private key also takes `{ hosts }` without
   * a value: the node that opens the token fills in its own credential of that name (`tokenBounds.credentials`).
   * `in` says where the placeholder is replaced (`'header'`, `'body'`, `'query'`). @default in ['header']
   * @example { GITHUB_TOKEN: { value: 'ghp_...', hosts: ['api.github.com'] } }
   */
  credentials?: Readonly<Record<string, { readonly value?: string; readonly hosts: readonly string[]; readonly in?: readonly ('header' | 'body' | 'query')[] }>>;
  /** Host environment variables commands may see (names or `PREFIX_*`), or an explicit map. @default [] */
  env?: readonly string[] | Readonly<Record<string, string>>;
  /** Charset of shell output, overriding detection. */
  shellEncoding?: string;
  /** Host tool modules to load in this session's worker, in addition to the runtime's. */
  toolModules?: readonly string[];
  /** Where host tools run. @default 'worker' */
  isolation?: 'worker' | 'process';
  /**
   * Edits the blocklist of paths never written (see docs/paths.md, "The blocklist"): `add` blocks more names,
   * `remove` lifts entries of the runtime's list by name (e.g. `['.vscode']`).
   * @default the runtime's list, `DEFAULT_BLOCKLIST`
   */
  blockedPaths?: BlockedPathsOption;
  /** Lifetime of a minted token, in seconds. @default 3600 */
  ttlSeconds?: number;
}

const CAPABILITY_KEYS = ['workspaceRoot', 'tools', 'readRoots', 'allowOutsideWorkspace', 'excludedPaths', 'limits', 'user', 'mcpServers', 'permissions', 'sandbox', 'net', 'credentials', 'env', 'shellEncoding', 'toolModules', 'isolation', 'blockedPaths'] as const satisfies readonly (keyof SessionOptions)[];
const KNOWN_KEYS = new Set<string>([...CAPABILITY_KEYS, 'token', 'ttlSeconds']);

/** Throws INVALID_OPTIONS when a token is combined with capability options, or an option is unknown. */
export function checkOptionKeys(options: SessionOptions): void {
  rejectUnknownKeys(requirePlainObject(options, 'session options'), KNOWN_KEYS, 'session');
  if (options.token !== undefined) {
    const extra = CAPABILITY_KEYS.filter((key) => options[key] !== undefined);
    if (extra.length > 0) {
      throw new ToolwardenError('INVALID_OPTIONS', `openSession({ token }) takes its capability from the token; drop ${extra.join(', ')}`);
    }
  }
}

export type { CapabilityDefaults } from '../../src/capability/fields.js';

/**
 * Validates session options and builds the canonical capability (roots realpath'ed, limits filled in), field by
 * field from `CAPABILITY_FIELDS`. `credentialReferences` lets credentials omit their value (minting for other nodes).
 */
export function buildCapability(options: SessionOptions, defaults: CapabilityDefaults, credentialReferences = false): Capability {
  checkOptionKeys(options);
  return { sid: randomUUID(), ...parseCapabilityFields(options, { defaults, canonicalDirectory, credentialReferences }) };
}

/** Resolves a directory option to its canonical absolute path, which must exist. */
export function canonicalDirectory(value: unknown, name: string): string {
  const raw = requireNonEmpty(value, name);
  let real: string;
  try {
    real = fs.realpathSync.native(path.resolve(raw));
  } catch {
    throw new ToolwardenError('INVALID_OPTIONS', `${name} '${raw}' does not exist`);
  }
  if (!fs.statSync(real).isDirectory()) throw new ToolwardenError('INVALID_OPTIONS', `${name} '${raw}' is not a directory`);
  return real;
}

import type { CredentialGrants } from '../net/egress/credentials.js';
import type { Limits } from '../limits.js';
import type { PermissionSpec } from '../policy/types.js';
import type { BlockedEntry } from '../path-guard/blocklist.js';

/** How shell commands are confined by the OS: see docs/sandbox.md. */
export type SandboxMode = 'auto' | 'required' | 'off';

export type { PermissionSpec };

/**
 * The verified, canonical capability a session runs under. It travels inside a signed token; the broker checks every
 * request against it. Children may only narrow it.
 */
export interface Capability {
  /** Session id this capability was minted for. */
  readonly sid: string;
  /** Tool names the session may see and call (closed by default). */
  readonly tools: readonly string[];
  /** Canonical absolute workspace root. */
  readonly workspaceRoot: string;
  /** Canonical absolute read-only roots. */
  readonly readRoots: readonly string[];
  readonly allowOutsideWorkspace: boolean;
  /**
   * Paths refused for writing, relative to the workspace root, `/`-separated. A child rooted below its parent
   * keeps the parent's re-rooted into its own frame, so an entry may climb out (`../.git`) in a child that may
   * write outside its workspace.
   */
  readonly excludedPaths: readonly string[];
  /** Entries never written; absent (a token from before the option) means `DEFAULT_BLOCKLIST`. See `effectiveBlocklist`. */
  readonly blockedPaths?: readonly BlockedEntry[];
  /** MCP entries: `'id'`, `'id:tool'`, `'id:pattern*'`. */
  readonly mcpServers: readonly string[];
  readonly limits: Readonly<Limits>;
  readonly user?: string;
  /** Permission layers, outermost (parent) first; every layer must allow a call. */
  readonly permissions: readonly PermissionSpec[];
  readonly sandbox: SandboxMode;
  /** Network permission: false, or allowed hosts (`host`, `host:port`, `*.domain`). */
  readonly net: false | readonly string[];
  /**
   * Credentials by environment name: commands see a placeholder, and the egress proxy puts the value in requests
   * to the credential's hosts only (docs/network.md, "Credentials by placeholder"). A token a control plane mints
   * may carry references (`{ hosts }`) instead, which the node opening it fills from its own credentials.
   */
  readonly credentials?: CredentialGrants;
  /** Host environment variables commands may see: names or `PREFIX_*` patterns, or an explicit map. */
  readonly env: readonly string[] | Readonly<Record<string, string>>;
  /** Explicit charset for shell output, if any. */
  readonly shellEncoding?: string;
  /** Host tool modules loaded in the worker (absolute file URLs). */
  readonly toolModules: readonly string[];
  /** Where the tool host runs. */
  readonly isolation: 'worker' | 'process';
}

import { randomBytes, randomUUID } from 'node:crypto';
import path from 'node:path';
import type { JSONWebKeySet } from 'jose';
import { ToolwardenError } from '../../src/errors.js';
import type { Capability } from '../../src/capability/capability.js';
import { narrowCapability, parseNarrowRequest, type NarrowRequest } from '../../src/capability/narrow.js';
import { childExpiry, DEFAULT_TOKEN_TTL_SECONDS } from '../../src/capability/expiry.js';
import { nowSeconds, signCapability, verifyCapability, type TokenSigner } from '../../src/capability/token.js';
import { parseTokenKeys, publicJwks, type TokenKeys, type TokenKeysOption } from '../../src/capability/token-keys.js';
import { bindTokenToNode, type NodeFloor } from '../../src/capability/token-bound.js';
import type { BlockedEntry } from '../../src/path-guard/index.js';
import { formatMcpEntry, narrowMcpEntries, parseMcpEntries } from '../../src/mcp/index.js';
import { checkRuleTools, narrowPermissions, validatePermissionSpec } from '../../src/policy/index.js';
import { bindSessionToTenant, resolveTenant, type TenantsOption } from '../../src/tenants/index.js';
import type { McpHub } from '../mcp/index.js';
import { assertMcpConfigured } from '../session/mcp-access.js';
import { buildCapability, canonicalDirectory, type SessionOptions } from '../session/session-options.js';
import type { HostToolCatalog } from '../tool-hosts/host-tool-catalog.js';
import { toModuleUrls } from '../tool-hosts/probe-tool-modules.js';
import { assertCapabilityWithinTenant } from './tenant-bound.js';

/** A capability ready to open a session with: its token (or how to sign it when first read) and when that expires. */
export interface IssuedCapability {
  readonly capability: Capability;
  readonly token: string | (() => string);
  /** Epoch seconds. */
  readonly expiresAt: number;
}

/** What a runtime's capability authority is configured with. */
export interface CapabilityAuthoritySettings {
  /** The HS256 key (at least 32 bytes); a random one when undefined. */
  readonly key: Uint8Array | string | undefined;
  readonly tokenKeys: TokenKeysOption | undefined;
  /** The node's bound on network, limits and credentials for tokens another party signed. */
  readonly tokenBounds: Pick<NodeFloor, 'net' | 'limits' | 'credentials'>;
  readonly blocklist: readonly BlockedEntry[];
  readonly tenants: TenantsOption | undefined;
  readonly sandbox: Capability['sandbox'];
  /** The runtime's own host tool module URLs. */
  readonly runtimeModules: readonly string[];
  readonly mcp: McpHub | undefined;
  readonly hostTools: HostToolCatalog;
}

/**
 * Where a runtime's capabilities come from: options built field by field and held to the user's tenant, tokens signed
 * and verified (and a foreign signer's held to this node), children narrowed from their parent. Every capability a
 * session opens with passes through here; nothing here opens a session.
 */
export class CapabilityAuthority {
  readonly #key: Uint8Array;
  readonly #tokenKeys: TokenKeys | undefined;
  /** What signs the tokens of sessions this runtime opens: the Ed25519 key when given, else the HS256 key. */
  readonly #signer: TokenSigner;
  readonly #settings: CapabilityAuthoritySettings;

  constructor(settings: CapabilityAuthoritySettings) {
    this.#settings = settings;
    this.#key = normalizeKey(settings.key);
    this.#tokenKeys = settings.tokenKeys === undefined ? undefined : parseTokenKeys(settings.tokenKeys);
    this.#signer = this.#tokenKeys?.signer ?? this.#key;
  }

  /** The Ed25519 public keys tokens are accepted with, as a JWKS; empty without `tokenKeys`. */
  get publicKeys(): JSONWebKeySet {
    return this.#tokenKeys === undefined ? { keys: [] } : publicJwks(this.#tokenKeys);
  }

  /** Signs a token for capability options (see Runtime.mintToken). */
  async mint(options: SessionOptions): Promise<string> {
    if (options.token !== undefined) throw new ToolwardenError('INVALID_OPTIONS', 'mintToken takes capability options, not a token');
    if (this.#tokenKeys !== undefined && this.#tokenKeys.signer === undefined) {
      throw new ToolwardenError('INVALID_OPTIONS', 'mintToken: this runtime verifies tokens only (tokenKeys has publicKeys and no privateKey)');
    }
    // Only a token for other nodes may name a credential without its value: the node opening it fills it in.
    const capability = await this.build(options, !(this.#signer instanceof Uint8Array));
    return signCapability(capability, this.#signer, options.ttlSeconds ?? DEFAULT_TOKEN_TTL_SECONDS);
  }

  /** A token's capability: signature and expiry checked, held to its user's tenant and, for a foreign signer, this node. */
  async verify(token: string): Promise<IssuedCapability> {
    const verified = await verifyCapability(token, this.#key, this.#tokenKeys);
    return { capability: this.#bound(verified.capability, verified.signedBy), token, expiresAt: verified.expiresAt };
  }

  /** A new capability from options, signed when its token is first read. */
  async issue(options: SessionOptions): Promise<IssuedCapability> {
    const capability = await this.build(options);
    const ttl = options.ttlSeconds ?? DEFAULT_TOKEN_TTL_SECONDS;
    const issuedAt = nowSeconds();
    return { capability, token: () => signCapability(capability, this.#signer, ttl, issuedAt), expiresAt: issuedAt + ttl };
  }

  /**
   * A child of `parent`: the request shape-checked, its paths canonical, every field narrowed, its token bounded by
   * the parent's (ESCALATION for asking more, INVALID_OPTIONS for a malformed field).
   */
  async narrow(parent: Capability, parentExpiresAt: number, given: NarrowRequest): Promise<IssuedCapability> {
    const request = parseNarrowRequest(given);
    const now = nowSeconds();
    const expiresAt = childExpiry(parentExpiresAt, request.ttlSeconds, now);
    const canonical: NarrowRequest = { ...request };
    if (request.workspaceRoot !== undefined) canonical.workspaceRoot = canonicalDirectory(request.workspaceRoot, 'workspaceRoot');
    if (request.readRoots !== undefined) canonical.readRoots = request.readRoots.map((root, i) => canonicalDirectory(root, `readRoots[${i}]`));
    if (request.permissions !== undefined) {
      const hostTools = await this.#settings.hostTools.tools(parent.toolModules, parent.isolation);
      canonical.permissions = validatePermissionSpec(request.permissions, 'attenuate permissions', this.#settings.hostTools.known(hostTools));
    }
    const child = narrowCapability(parent, canonical, randomUUID(), {
      flavour: path,
      narrowMcp: (parentEntries, requested) => narrowMcpEntries(parseMcpEntries(parentEntries, this.#mcpServerIds()), requested).map(formatMcpEntry),
      narrowPermissions: (parentLayers, requested) => narrowPermissions(parentLayers, requested),
    });
    return { capability: child, token: () => signCapability(child, this.#signer, expiresAt - now, now), expiresAt };
  }

  /** Validates options against the user's tenant and builds the capability (`credentialReferences`: see buildCapability). */
  async build(options: SessionOptions, credentialReferences = false): Promise<Capability> {
    const { tenants, sandbox, runtimeModules, blocklist, mcp, hostTools } = this.#settings;
    const tenant = resolveTenant(tenants, options.user);
    const bound = bindSessionToTenant(
      { ...(options.tools ? { tools: [...options.tools] } : {}), ...(options.mcpServers ? { mcpServers: [...options.mcpServers] } : {}) },
      tenant,
      options.user,
    );
    const capability = buildCapability(
      {
        ...options,
        ...(bound.tools ? { tools: bound.tools } : {}),
        mcpServers: bound.mcpServers,
        ...(options.workspaceRoot === undefined && tenant?.workspaceRoot ? { workspaceRoot: tenant.workspaceRoot } : {}),
        ...(options.readRoots === undefined && tenant?.readRoots ? { readRoots: tenant.readRoots } : {}),
        ...(options.toolModules ? { toolModules: toModuleUrls(options.toolModules) } : {}),
        ...(options.permissions ? { permissions: validatePermissionSpec(options.permissions, 'openSession permissions') } : {}),
      },
      { sandbox, toolModules: runtimeModules, blocklist },
      credentialReferences,
    );
    assertCapabilityWithinTenant(capability, tenant);
    assertMcpConfigured(mcp, capability);
    parseMcpEntries(capability.mcpServers, this.#mcpServerIds());
    const known = await hostTools.assertKnown(capability);
    for (const layer of capability.permissions) checkRuleTools(layer, 'openSession permissions', hostTools.known(known));
    return capability;
  }

  /**
   * A verified token's capability within its user's tenant and, when another party signed it, within this node, its
   * credential references filled with the node's values.
   */
  #bound(capability: Capability, signedBy: 'hs256' | 'ed25519'): Capability {
    const { tenants, sandbox, runtimeModules, blocklist, tokenBounds } = this.#settings;
    assertCapabilityWithinTenant(capability, resolveTenant(tenants, capability.user));
    if (signedBy === 'hs256') return capability;
    return bindTokenToNode(capability, { sandbox, toolModules: runtimeModules, blocklist, ...tokenBounds, mcpServerIds: this.#mcpServerIds() });
  }

  #mcpServerIds(): readonly string[] {
    return this.#settings.mcp?.serverIds ?? [];
  }
}

function normalizeKey(key: Uint8Array | string | undefined): Uint8Array {
  if (key === undefined) return new Uint8Array(randomBytes(32));
  const bytes = typeof key === 'string' ? new TextEncoder().encode(key) : key;
  if (bytes.length < 32) throw new ToolwardenError('INVALID_OPTIONS', 'key must be at least 32 bytes');
  return bytes;
}

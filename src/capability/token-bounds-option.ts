import { ToolwardenError } from '../errors.js';
import { DEFAULT_LIMITS, type Limits } from '../limits.js';
import { heldCredentials, parseCredentials, type CredentialPlace } from '../net/egress/credentials.js';
import { validateNetPermission } from '../net/net-permission.js';
import { rejectUnknownKeys, requirePlainObject } from './plain-object.js';
import { parseLimits } from './parse-limits.js';
import type { NodeFloor } from './token-bound.js';

/**
 * What a token signed by another party (an Ed25519 control plane) may have at most on this node, beyond its user's
 * tenant. Unset fields are the strictest: no network, the default limits, no credentials.
 */
export interface TokenBoundsOption {
  /** The widest `net` such a token may grant; an exact host needs an exact entry here. @default false */
  net?: false | readonly string[];
  /** The highest limits it may set; unset limits are the defaults. @default DEFAULT_LIMITS */
  limits?: Partial<Limits>;
  /** The node's credentials, by environment name: a token names one (`{ hosts }`) and the node fills in the value. @default {} */
  credentials?: Readonly<Record<string, { readonly value: string; readonly hosts: readonly string[]; readonly in?: readonly CredentialPlace[] }>>;
}

const WHERE = 'tokenBounds';
const KEYS: ReadonlySet<string> = new Set(['net', 'limits', 'credentials']);

/**
 * Parses the `tokenBounds` option into the node's bound on network, limits and credentials.
 * @throws ToolwardenError INVALID_OPTIONS naming `tokenBounds.<field>` and the rule
 */
export function parseTokenBounds(option: TokenBoundsOption | undefined): Pick<NodeFloor, 'net' | 'limits' | 'credentials'> {
  if (option === undefined) return { net: false, limits: { ...DEFAULT_LIMITS }, credentials: {} };
  const raw = requirePlainObject(option, WHERE);
  rejectUnknownKeys(raw, KEYS, WHERE);
  return {
    net: raw['net'] === undefined ? false : prefixed('net', () => validateNetPermission(raw['net'])),
    limits: { ...DEFAULT_LIMITS, ...(raw['limits'] === undefined ? {} : parseLimits(raw['limits'], `${WHERE}.limits`)) },
    credentials: raw['credentials'] === undefined ? {} : prefixed('credentials', () => heldCredentials(parseCredentials(raw['credentials']))),
  };
}

function prefixed<T>(field: string, parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    if (error instanceof ToolwardenError) throw new ToolwardenError('INVALID_OPTIONS', `${WHERE}.${field}: ${error.message}`);
    throw error;
  }
}

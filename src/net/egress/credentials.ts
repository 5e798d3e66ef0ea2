import { ToolwardenError } from '../../errors.js';
import { isHostAllowed, validateNetPermission } from '../net-permission.js';

/** Where in a request a credential's placeholder may be replaced by its value. */
export const CREDENTIAL_PLACES = ['header', 'body', 'query'] as const;
export type CredentialPlace = (typeof CREDENTIAL_PLACES)[number];

/** One credential of a session: its value and the hosts (net entries) it may be sent to. */
export interface Credential {
  readonly value: string;
  readonly hosts: readonly string[];
  /** Where its placeholder is replaced in requests to those hosts (bodies and queries are opt-in). @default ['header'] */
  readonly in?: readonly CredentialPlace[];
}

/** A session's credentials by environment name. */
export type Credentials = Readonly<Record<string, Credential>>;

/**
 * A credential named without its value, in a token a control plane mints for other nodes: the node that opens the
 * token fills in the value of its own credential of that name (docs/tokens.md, "What a node allows a token").
 */
export interface CredentialReference {
  readonly hosts: readonly string[];
  readonly in?: readonly CredentialPlace[];
}

/** Credentials as a capability carries them: values, or references a verifying node resolves. */
export type CredentialGrants = Readonly<Record<string, Credential | CredentialReference>>;

/** A credential as the proxy uses it: the placeholder the command sees stands for the value. */
export interface PlacedCredential extends Credential {
  readonly name: string;
  readonly placeholder: string;
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Checks the `credentials` option: `{ NAME: { value, hosts } }` with NAME an environment name, value a non-empty
 * string without CR, LF or NUL, and hosts a non-empty list of net entries other than `'*'`. With `references`,
 * `{ NAME: { hosts } }` (no value) is accepted too, for a token another node resolves.
 * @throws ToolwardenError `INVALID_OPTIONS` naming the credential (never its value)
 */
export function parseCredentials(value: unknown, references = false): CredentialGrants {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalid('credentials must be an object of { value, hosts } by environment name');
  const out: Record<string, Credential | CredentialReference> = {};
  for (const [name, entry] of Object.entries(value)) {
    if (!NAME.test(name)) throw invalid(`credentials name ${JSON.stringify(name)} is not an environment variable name`);
    if (typeof entry !== 'object' || entry === null) throw invalid(`credentials.${name} must be { value, hosts }`);
    const { value: secret, hosts, in: places, ...rest } = entry as Record<string, unknown>;
    if (Object.keys(rest).length > 0) throw invalid(`credentials.${name} has unknown keys ${Object.keys(rest).join(', ')}`);
    const reference = references && secret === undefined;
    if (!reference && (typeof secret !== 'string' || secret === '' || /[\r\n\0]/.test(secret))) {
      throw invalid(`credentials.${name}.value must be a non-empty string without CR, LF or NUL${references ? ', or absent to name the verifying node\'s credential' : ''}`);
    }
    const list = validateNetPermission(hosts);
    if (list === false || list.length === 0) throw invalid(`credentials.${name}.hosts must be a non-empty list of hosts`);
    if (list.some((host) => host === '*' || host.startsWith('*:'))) throw invalid(`credentials.${name}.hosts must name hosts, not '*'`);
    const where = places === undefined ? {} : { in: parsePlaces(places, name) };
    out[name] = reference ? { hosts: list, ...where } : { value: secret as string, hosts: list, ...where };
  }
  return out;
}

/**
 * A child's credentials: the parent's, or only the names it lists (`credentials: ['NAME']`). A child cannot add a
 * credential, change a value or widen hosts; naming one the parent lacks is ESCALATION.
 */
export function narrowCredentials(parent: CredentialGrants | undefined, requested: readonly string[] | undefined, escalate: (why: string) => never): CredentialGrants | undefined {
  if (requested === undefined) return parent;
  const kept: Record<string, Credential | CredentialReference> = {};
  for (const name of requested) {
    const credential = parent?.[name];
    if (credential === undefined) escalate(`credential '${name}' is not the parent's`);
    kept[name] = credential;
  }
  return kept;
}

/**
 * The credentials a session uses, all with values. A reference left unresolved is a bug: a token's references are
 * resolved (or refused) when it is opened, and options with references are only minted.
 * @throws ToolwardenError INTERNAL naming the credential
 */
export function heldCredentials(grants: CredentialGrants | undefined): Credentials {
  const held: Record<string, Credential> = {};
  for (const [name, grant] of Object.entries(grants ?? {})) {
    if (!('value' in grant)) throw new ToolwardenError('INTERNAL', `credentials.${name} reached a session without its value`);
    held[name] = grant;
  }
  return held;
}

/** The credentials whose value may be put in `place` of a request to host:port. */
export function credentialsFor(credentials: readonly PlacedCredential[], place: CredentialPlace, host: string, port: number): PlacedCredential[] {
  return credentials.filter((c) => (c.in ?? ['header']).includes(place) && isHostAllowed(c.hosts, host, port));
}

/** Whether any credential may be sent to host:port (then its TLS is terminated and its headers rewritten). */
export function credentialsCover(credentials: readonly PlacedCredential[], host: string, port: number): boolean {
  return credentials.some((c) => isHostAllowed(c.hosts, host, port));
}

/**
 * Replaces each placeholder by its value in one header value, for the credentials whose hosts include host:port;
 * other placeholders stay as they are. A `Basic` authorization is decoded, rewritten and encoded again, so a
 * placeholder in a URL's user:password works too.
 * @example substituteHeader('Bearer tw-cred-K-1', 'authorization', creds, 'api.example.com', 443) // 'Bearer real'
 */
export function substituteHeader(value: string, name: string, credentials: readonly PlacedCredential[], host: string, port: number): string {
  const usable = credentialsFor(credentials, 'header', host, port);
  if (usable.length === 0) return value;
  const replace = (text: string): string => usable.reduce((acc, c) => acc.split(c.placeholder).join(c.value), text);
  const basic = /^(basic\s+)([A-Za-z0-9+/=]+)$/i.exec(value);
  if ((name === 'authorization' || name === 'proxy-authorization') && basic !== null) {
    const decoded = Buffer.from(basic[2] ?? '', 'base64').toString('utf8');
    const replaced = replace(decoded);
    if (replaced !== decoded) return `${basic[1] ?? 'Basic '}${Buffer.from(replaced, 'utf8').toString('base64')}`;
  }
  return replace(value);
}

function parsePlaces(places: unknown, name: string): CredentialPlace[] {
  const known: readonly unknown[] = CREDENTIAL_PLACES;
  if (!Array.isArray(places) || places.length === 0 || !places.every((place) => known.includes(place))) {
    throw invalid(`credentials.${name}.in must be a non-empty list of ${CREDENTIAL_PLACES.map((p) => `'${p}'`).join(', ')}`);
  }
  return [...new Set(places as CredentialPlace[])];
}

function invalid(message: string): ToolwardenError {
  return new ToolwardenError('INVALID_OPTIONS', message);
}

import { createHash, createPrivateKey, createPublicKey, sign, type KeyObject } from 'node:crypto';
import { createLocalJWKSet, type JSONWebKeySet, type JWK } from 'jose';
import { ToolwardenError } from '../errors.js';

/** An Ed25519 key as a host may hold it: a PEM string (PKCS#8 private, SPKI public), a JWK, or a KeyObject. */
export type Ed25519KeyInput = string | JWK | KeyObject;

/**
 * Asymmetric capability tokens: a control plane mints with `privateKey`; every serving node verifies with
 * `publicKeys` and, holding no private key, can mint nothing another node accepts.
 */
export interface TokenKeysOption {
  /** Ed25519 private key that signs every token this runtime issues (EdDSA). Its public key is always accepted. */
  privateKey?: Ed25519KeyInput;
  /** `kid` written in minted tokens. @default the RFC 7638 thumbprint of the public key */
  keyId?: string;
  /** Ed25519 public keys accepted, several for rotation: a JWKS (`{ keys: [...] }`) or a list of keys. */
  publicKeys?: JSONWebKeySet | readonly Ed25519KeyInput[];
}

/** The parsed form of {@link TokenKeysOption}: a signer when there is a private key, and the key set verifying EdDSA. */
export interface TokenKeys {
  readonly signer: { readonly key: KeyObject; readonly keyId: string } | undefined;
  /** Public keys as JWKs, each with its `kid`. */
  readonly publicJwks: readonly JWK[];
  readonly keySet: ReturnType<typeof createLocalJWKSet>;
}

const WHERE = 'tokenKeys';

/**
 * Parses the `tokenKeys` option: every key must be Ed25519, `publicKeys` may not be empty, unknown fields are refused.
 * @throws ToolwardenError INVALID_OPTIONS naming the field and the rule
 */
export function parseTokenKeys(option: TokenKeysOption): TokenKeys {
  if (typeof option !== 'object' || option === null || Array.isArray(option)) throw invalid(`${WHERE} must be an object`);
  for (const key of Object.keys(option)) {
    if (!['privateKey', 'keyId', 'publicKeys'].includes(key)) throw invalid(`unknown ${WHERE} field '${key}'; known: privateKey, keyId, publicKeys`);
  }
  if (option.privateKey === undefined && option.publicKeys === undefined) throw invalid(`${WHERE} needs a privateKey, publicKeys, or both`);
  if (option.keyId !== undefined && (typeof option.keyId !== 'string' || option.keyId.length === 0)) throw invalid(`${WHERE}.keyId must be a non-empty string`);
  let signer: TokenKeys['signer'];
  const publicJwks: JWK[] = [];
  if (option.privateKey !== undefined) {
    const key = ed25519Key(option.privateKey, 'private', `${WHERE}.privateKey`);
    const jwk = publicJwk(createPublicKey(key), option.keyId ?? kidOf(option.privateKey));
    signer = { key, keyId: jwk.kid as string };
    publicJwks.push(jwk);
  }
  for (const [i, given] of publicKeyList(option.publicKeys).entries()) {
    const where = `${WHERE}.publicKeys[${i}]`;
    const jwk = publicJwk(ed25519Key(given, 'public', where), kidOf(given));
    // The same key under two kids is kept twice: rotating a kid alone must not drop the old one.
    if (!publicJwks.some((known) => known.x === jwk.x && known.kid === jwk.kid)) publicJwks.push(jwk);
  }
  return { signer, publicJwks, keySet: createLocalJWKSet({ keys: publicJwks.map((jwk) => ({ ...jwk })) }) };
}

/** The public half of a parsed key set as a JWKS, to publish for serving nodes. */
export function publicJwks(keys: TokenKeys): JSONWebKeySet {
  return { keys: keys.publicJwks.map((jwk) => ({ ...jwk })) };
}

/** Signs `signingInput` (the JWS header and payload) with an Ed25519 key: synchronous, 64 bytes, base64url. */
export function signEd25519(signingInput: string, key: KeyObject): string {
  return sign(null, Buffer.from(signingInput, 'utf8'), key).toString('base64url');
}

function publicKeyList(given: TokenKeysOption['publicKeys']): readonly Ed25519KeyInput[] {
  if (given === undefined) return [];
  const list = Array.isArray(given) ? given : (given as JSONWebKeySet).keys;
  if (!Array.isArray(list) || list.length === 0) throw invalid(`${WHERE}.publicKeys must be a non-empty list of keys or a JWKS { keys: [...] }`);
  return list as readonly Ed25519KeyInput[];
}

function ed25519Key(given: Ed25519KeyInput, kind: 'private' | 'public', where: string): KeyObject {
  let key: KeyObject;
  try {
    if (isKeyObject(given)) key = given;
    else if (typeof given === 'string') key = kind === 'private' ? createPrivateKey(given) : createPublicKey(given);
    else key = kind === 'private' ? createPrivateKey({ key: given as never, format: 'jwk' }) : createPublicKey({ key: publicPart(given) as never, format: 'jwk' });
  } catch (error) {
    throw invalid(`${where} is not a readable Ed25519 ${kind} key (PEM, JWK or KeyObject): ${(error as Error).message}`);
  }
  if (key.asymmetricKeyType !== 'ed25519') throw invalid(`${where} must be an Ed25519 key, not ${key.asymmetricKeyType ?? key.type}`);
  if (kind === 'private' && key.type !== 'private') throw invalid(`${where} must be a private key`);
  return kind === 'public' && key.type === 'private' ? createPublicKey(key) : key;
}

/** A JWK's public members only: a private `d` handed in as a public key is dropped, never published. */
function publicPart(jwk: JWK): JWK {
  return { kty: jwk.kty, crv: jwk.crv, x: jwk.x } as JWK;
}

function publicJwk(key: KeyObject, kid: string | undefined): JWK {
  const { crv, x } = key.export({ format: 'jwk' }) as { crv: string; x: string };
  // No `alg` member: a key set entry with one would match only tokens naming that exact alias (EdDSA vs Ed25519).
  return { kty: 'OKP', crv, x, use: 'sig', kid: kid ?? thumbprint(crv, x) };
}

/** RFC 7638 thumbprint of an OKP key: SHA-256 over its required members in lexicographic order. */
function thumbprint(crv: string, x: string): string {
  return createHash('sha256').update(JSON.stringify({ crv, kty: 'OKP', x })).digest('base64url');
}

/** The `kid` a JWK input names, if any. */
function kidOf(given: Ed25519KeyInput): string | undefined {
  return typeof given === 'object' && !isKeyObject(given) && typeof given.kid === 'string' && given.kid.length > 0 ? given.kid : undefined;
}

function isKeyObject(value: unknown): value is KeyObject {
  return typeof value === 'object' && value !== null && typeof (value as KeyObject).export === 'function' && typeof (value as KeyObject).type === 'string';
}

function invalid(message: string): ToolwardenError {
  return new ToolwardenError('INVALID_OPTIONS', message);
}

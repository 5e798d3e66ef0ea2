import { generateKeyPairSync } from 'node:crypto';
import type { JSONWebKeySet, JWK } from 'jose';
import { parseTokenKeys, publicJwks } from '../../src/capability/token-keys.js';

/** A fresh Ed25519 token key pair: the private JWK for the control plane, the JWKS for every serving node. */
export interface TokenKeyPair {
  /** Private JWK (with `d`): keep it on the minting host only. */
  privateKey: JWK;
  /** The public key as a JWKS, to give every node's `tokenKeys.publicKeys` (append keys to rotate). */
  publicKeys: JSONWebKeySet;
  /** The `kid` minted tokens carry. */
  keyId: string;
}

/**
 * Generates an Ed25519 key pair for the `tokenKeys` runtime option.
 * @param keyId the `kid`; defaults to the key's RFC 7638 thumbprint
 * @example const { privateKey, publicKeys } = generateTokenKeyPair();
 */
export function generateTokenKeyPair(keyId?: string): TokenKeyPair {
  const { privateKey } = generateKeyPairSync('ed25519');
  const keys = parseTokenKeys({ privateKey, ...(keyId === undefined ? {} : { keyId }) });
  const kid = keys.signer?.keyId as string;
  return { privateKey: { ...(privateKey.export({ format: 'jwk' }) as JWK), kid }, publicKeys: publicJwks(keys), keyId: kid };
}

import { X509Certificate } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { parseUpstreamCa } from '../../src/net/upstream-ca.js';
import { ToolwardenError } from '../../src/errors.js';
import { makePrivateCa } from '../helpers/private-ca.js';

// The upstreamCa option: CA certificates (PEM) and nothing else. A bad one is INVALID_OPTIONS naming the field and
// the entry; a private key pasted in is refused without being quoted back.
const ca = makePrivateCa('Upstream CA one');
const second = makePrivateCa('Upstream CA two');
const leaf = ca.leaf(['api.test']);
afterAll(() => {
  ca.cleanup();
  second.cleanup();
});

function refusal(value: unknown): ToolwardenError {
  try {
    parseUpstreamCa(value);
  } catch (error) {
    if (error instanceof ToolwardenError) return error;
    throw error;
  }
  throw new Error('accepted');
}

describe('parseUpstreamCa', () => {
  it.each<[string, () => unknown, number]>([
    ['one CA as PEM text', () => ca.certPem, 1],
    ['two CAs in one text', () => `${ca.certPem}\n${second.certPem}`, 2],
    ['a list of texts', () => [ca.certPem, second.certPem], 2],
    ['CRLF line ends and surrounding blank lines', () => `\r\n${ca.certPem.replaceAll('\n', '\r\n')}\r\n\r\n`, 1],
  ])('accepts %s, one PEM per certificate', (_name, value, count) => {
    const certs = parseUpstreamCa(value());
    expect(certs).toHaveLength(count);
    for (const cert of certs) expect(new X509Certificate(cert).ca).toBe(true);
  });

  it.each<[string, () => unknown, RegExp]>([
    ['a number', () => 42, /^upstreamCa must be PEM text .* or a list of such texts/],
    ['an empty list', () => [], /^upstreamCa must be PEM text/],
    ['a list holding a non-string', () => [ca.certPem, 1], /^upstreamCa\[1\] must be PEM text/],
    ['empty text', () => '', /^upstreamCa holds no PEM certificate/],
    ['text that is not PEM', () => 'not a certificate', /^upstreamCa holds no PEM certificate/],
    ['a path instead of PEM', () => '/etc/ssl/certs/private-ca.pem', /^upstreamCa holds no PEM certificate/],
    ['text outside the blocks', () => `issuer: private\n${ca.certPem}`, /^upstreamCa has text outside its PEM blocks/],
    ['a private key next to the CA', () => `${ca.certPem}${leaf.key}`, /^upstreamCa holds a PRIVATE KEY block: give CA certificates only/],
    ['a request instead of a certificate', () => '-----BEGIN CERTIFICATE REQUEST-----\nMIIB\n-----END CERTIFICATE REQUEST-----\n', /^upstreamCa holds a CERTIFICATE REQUEST block/],
    ['a corrupted certificate', () => ca.certPem.replace(/\n[A-Za-z0-9+/]{20}/, '\n!!!!'), /^upstreamCa certificate 1 is not a valid X\.509 certificate/],
    ['a truncated certificate', () => ca.certPem.replace(/\n[^\n]+\n-----END/, '\n-----END'), /^upstreamCa certificate 1 is not a valid X\.509 certificate/],
    ['a server certificate instead of its CA', () => leaf.cert, /^upstreamCa certificate 1 \(CN=api\.test\) is not a CA certificate \(basicConstraints CA:TRUE\)/],
    ['a leaf second in a list', () => [ca.certPem, `${second.certPem}${leaf.cert}`], /^upstreamCa\[1\] certificate 2 \(CN=api\.test\) is not a CA certificate/],
  ])('refuses %s with INVALID_OPTIONS naming the field', (_name, value, message) => {
    const error = refusal(value());
    expect(error.code).toBe('INVALID_OPTIONS');
    expect(error.message).toMatch(message);
    expect(error.message).not.toContain('PRIVATE KEY-----');
    expect(error.message).not.toContain(leaf.key.split('\n')[1] ?? 'no key line');
  });

  it('names the field it is given', () => {
    expect(() => parseUpstreamCa('x', 'config upstreamCa (ca.pem)')).toThrow(/^config upstreamCa \(ca\.pem\) holds no PEM certificate/);
  });
});

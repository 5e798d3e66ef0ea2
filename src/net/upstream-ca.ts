import { X509Certificate } from 'node:crypto';
import { ToolwardenError } from '../errors.js';

const BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----\r?\n([\s\S]*?)-----END \1-----/g;

/**
 * Checks the `upstreamCa` option: PEM text holding one or more CA certificates, or a list of such texts. Every block
 * must be a `CERTIFICATE` that parses and says it is a CA (basicConstraints CA:TRUE); a key or anything else pasted
 * in is refused, and never quoted back. `field` names the option in errors.
 * @returns each certificate as a PEM of its own
 * @throws ToolwardenError INVALID_OPTIONS naming the field, the entry of a list and the certificate's number
 * @example parseUpstreamCa(fs.readFileSync('/etc/corp/root-ca.pem', 'utf8')) // ['-----BEGIN CERTIFICATE-----\n...']
 */
export function parseUpstreamCa(value: unknown, field = 'upstreamCa'): string[] {
  const texts = typeof value === 'string' ? [value] : Array.isArray(value) && value.length > 0 ? (value as unknown[]) : undefined;
  if (texts === undefined) throw invalid(`${field} must be PEM text (one or more CA certificates) or a list of such texts`);
  return texts.flatMap((text, index) => parseText(text, Array.isArray(value) ? `${field}[${index}]` : field));
}

function parseText(text: unknown, where: string): string[] {
  if (typeof text !== 'string') throw invalid(`${where} must be PEM text (one or more CA certificates)`);
  const blocks = [...text.matchAll(BLOCK)];
  if (blocks.length === 0) throw invalid(`${where} holds no PEM certificate (-----BEGIN CERTIFICATE-----); give the CA's PEM text, not a path`);
  const other = blocks.find((block) => block[1] !== 'CERTIFICATE');
  if (other !== undefined) throw invalid(`${where} holds a ${other[1] ?? ''} block: give CA certificates only`);
  if (text.replace(BLOCK, '').trim() !== '') throw invalid(`${where} has text outside its PEM blocks`);
  return blocks.map((block, index) => {
    const pem = `${block[0].replaceAll('\r\n', '\n')}\n`;
    let cert: X509Certificate;
    try {
      cert = new X509Certificate(pem);
    } catch {
      throw invalid(`${where} certificate ${index + 1} is not a valid X.509 certificate`);
    }
    if (!cert.ca) throw invalid(`${where} certificate ${index + 1} (${cert.subject.replaceAll('\n', ', ')}) is not a CA certificate (basicConstraints CA:TRUE)`);
    return pem;
  });
}

function invalid(message: string): ToolwardenError {
  return new ToolwardenError('INVALID_OPTIONS', message);
}

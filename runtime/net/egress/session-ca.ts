import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import tls, { type SecureContext } from 'node:tls';
import forge from 'node-forge';

/** A per-session certificate authority: its certificate, and leaf certificates for the hosts it intercepts. */
export interface SessionCa {
  /** The CA certificate (PEM), which the sandbox trusts. */
  readonly certPem: string;
  /** A TLS context whose certificate names `host` (a DNS name or an IP), signed by this CA; cached per host. */
  contextFor(host: string): SecureContext;
}

const VALID_DAYS = 30;

/**
 * Makes a fresh CA for one session (RSA 2048, keys from node:crypto, certificates built with node-forge). Its key
 * never leaves this process; one leaf key serves all of the session's hosts.
 * @example const ca = createSessionCa('s-1'); tls.createServer({ SNICallback: (h, cb) => cb(null, ca.contextFor(h)) })
 */
export function createSessionCa(sessionId: string): SessionCa {
  const caKeys = rsaKeys();
  const caCert = buildCert(caKeys.publicKey, caKeys.privateKey, [{ name: 'commonName', value: `toolwarden session ${sessionId}` }], undefined, [
    { name: 'basicConstraints', cA: true, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
  ]);
  const leafKeys = rsaKeys();
  const leafKeyPem = forge.pki.privateKeyToPem(leafKeys.privateKey);
  const contexts = new Map<string, SecureContext>();
  return {
    certPem: forge.pki.certificateToPem(caCert),
    contextFor(host) {
      const bare = host.replace(/^\[|\]$/g, '');
      let context = contexts.get(bare);
      if (context === undefined) {
        const altName = isIP(bare) === 0 ? { type: 2, value: bare } : { type: 7, ip: bare };
        const leaf = buildCert(leafKeys.publicKey, caKeys.privateKey, [{ name: 'commonName', value: bare }], caCert, [
          { name: 'basicConstraints', cA: false },
          { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
          { name: 'extKeyUsage', serverAuth: true },
          { name: 'subjectAltName', altNames: [altName] },
        ]);
        context = tls.createSecureContext({ key: leafKeyPem, cert: `${forge.pki.certificateToPem(leaf)}${forge.pki.certificateToPem(caCert)}` });
        contexts.set(bare, context);
      }
      return context;
    },
  };
}

function rsaKeys(): { publicKey: forge.pki.rsa.PublicKey; privateKey: forge.pki.rsa.PrivateKey } {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } });
  return { publicKey: forge.pki.publicKeyFromPem(publicKey) as forge.pki.rsa.PublicKey, privateKey: forge.pki.privateKeyFromPem(privateKey) as forge.pki.rsa.PrivateKey };
}

function buildCert(publicKey: forge.pki.PublicKey, signer: forge.pki.rsa.PrivateKey, subject: forge.pki.CertificateField[], issuer: forge.pki.Certificate | undefined, extensions: object[]): forge.pki.Certificate {
  const cert = forge.pki.createCertificate();
  cert.publicKey = publicKey;
  // A positive serial: the first hex digit below 8.
  cert.serialNumber = `0${randomBytes(15).toString('hex')}`;
  cert.validity.notBefore = new Date(Date.now() - 60_000);
  cert.validity.notAfter = new Date(Date.now() + VALID_DAYS * 86_400_000);
  cert.setSubject(subject);
  cert.setIssuer(issuer?.subject.attributes ?? subject);
  cert.setExtensions([...extensions, { name: 'subjectKeyIdentifier' }]);
  cert.sign(signer, forge.md.sha256.create());
  return cert;
}

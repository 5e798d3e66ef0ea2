import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A certificate authority made with Debian's openssl in a temp dir, and the leaf certificates it signs. */
export interface PrivateCa {
  /** The CA certificate (PEM). */
  readonly certPem: string;
  /** A key and certificate for `names` (DNS names, or IPs as `IP:1.2.3.4`), signed by this CA. */
  leaf(names: readonly string[]): { key: string; cert: string };
  cleanup(): void;
}

let serial = 0;

/**
 * Makes a CA (EC P-256, basicConstraints CA:TRUE) named `name` with openssl, in a fresh temp dir.
 * @example const ca = makePrivateCa('Private CA'); https.createServer(ca.leaf(['api.test']), handler)
 */
export function makePrivateCa(name: string): PrivateCa {
  const dir = mkdtempSync(join(tmpdir(), 'tw-private-ca-'));
  const at = (file: string): string => join(dir, file);
  const openssl = (...args: string[]): void => void execFileSync('openssl', args, { stdio: ['ignore', 'ignore', 'pipe'] });
  openssl('req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', at('ca.key'), '-out', at('ca.pem'), '-days', '2',
    '-subj', `/CN=${name}`, '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign');
  return {
    certPem: readFileSync(at('ca.pem'), 'utf8'),
    leaf(names) {
      serial += 1;
      const base = at(`leaf-${serial}`);
      const san = names.map((n) => (n.startsWith('IP:') ? n : `DNS:${n}`)).join(',');
      writeFileSync(`${base}.ext`, `basicConstraints=CA:FALSE\nkeyUsage=digitalSignature\nextendedKeyUsage=serverAuth\nsubjectAltName=${san}\n`);
      openssl('req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', `${base}.key`, '-out', `${base}.csr`, '-subj', `/CN=${names[0]?.replace(/^IP:/, '') ?? 'leaf'}`);
      openssl('x509', '-req', '-in', `${base}.csr`, '-CA', at('ca.pem'), '-CAkey', at('ca.key'), '-set_serial', String(1000 + serial), '-days', '2', '-extfile', `${base}.ext`, '-out', `${base}.pem`);
      return { key: readFileSync(`${base}.key`, 'utf8'), cert: readFileSync(`${base}.pem`, 'utf8') };
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

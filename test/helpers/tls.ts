// Throwaway TLS certificates for tests: a CA and a server certificate for `localhost` / 127.0.0.1 signed by it,
// made with the openssl command line in a temp folder (Node cannot make X.509 certificates). Fails, with the
// package to install, when openssl is missing. Test-only.
import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './temp.js';

export interface TestCertificates {
  dir: string;
  /** The CA certificate (PEM) clients must trust, e.g. through NODE_EXTRA_CA_CERTS. */
  ca: string;
  /** The server's certificate and key (PEM files). */
  cert: string;
  key: string;
  remove(): void;
}

function openssl(args: string[], cwd: string): void {
  const r = spawnSync('openssl', args, { cwd, encoding: 'utf8' });
  if (r.error !== undefined) throw new Error(`openssl is not installed (\`apt-get install openssl\`); the TLS tests need it to make certificates: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`openssl ${args[0]} failed: ${r.stderr}`);
}

/** A fresh CA and a server certificate (SAN: DNS localhost, IP 127.0.0.1), valid for a day. */
export function makeCertificates(): TestCertificates {
  const dir = tempDir('ac-tls-');
  openssl(['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.crt', '-days', '1', '-subj', '/CN=api-catalog test CA'], dir);
  openssl(['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=localhost'], dir);
  writeFileSync(join(dir, 'san.ext'), 'subjectAltName=DNS:localhost,IP:127.0.0.1\n');
  openssl(['x509', '-req', '-in', 'server.csr', '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'server.crt', '-days', '1', '-extfile', 'san.ext'], dir);
  return {
    dir,
    ca: join(dir, 'ca.crt'),
    cert: join(dir, 'server.crt'),
    key: join(dir, 'server.key'),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

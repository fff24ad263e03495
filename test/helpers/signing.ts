import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serializePdf, withTempFile } from './pdf.js';

export const STORE_PASSWORD = 'store-pw-7Qx';

/**
 * A one-page document whose signature field is signed (a /V signature dictionary; its zero bytes verify nothing): what
 * an action that would break signatures refuses with 409 DOCUMENT_SIGNED.
 */
export function signedFieldPdf(): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [4 0 R] /SigFlags 3 >> >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Annots [4 0 R] >>',
    '<< /Type /Annot /Subtype /Widget /FT /Sig /T (Signature1) /Rect [0 0 0 0] /P 3 0 R /V 5 0 R >>',
    `<< /Type /Sig /Filter /Adobe.PPKLite /SubFilter /adbe.pkcs7.detached /ByteRange [0 0 0 0] /Contents <${'00'.repeat(64)}> >>`,
  ];
  return serializePdf(objects, '/Root 1 0 R');
}

export interface KeyStores {
  /** PKCS#12 as OpenSSL 3 writes by default: PBES2, AES-256-CBC, HMAC-SHA256 MAC. Leaf signed by a CA, with the CA in the store. */
  aes: Buffer;
  /** Certificates and key in 3DES (pbeWithSHAAnd3-KeyTripleDES-CBC), SHA-1 MAC. */
  des: Buffer;
  /** `openssl pkcs12 -legacy`: certificates in RC2-40, key in 3DES. */
  legacy: Buffer;
  /** An EC P-256 key, self-signed. */
  ec: Buffer;
  /** Certificates only. */
  noKey: Buffer;
  /** The CA certificate (PEM), for openssl checks. */
  caPem: string;
}

/** Makes RSA-2048 key stores with the openssl command line (a CA and a leaf "Jane Signer" it issued). */
export function makeKeyStores(): KeyStores {
  const dir = mkdtempSync(path.join(tmpdir(), 'pdfservice-keys-'));
  const run = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  const p = (f: string) => path.join(dir, f);
  try {
    writeFileSync(p('leaf.ext'), 'keyUsage=critical,digitalSignature,nonRepudiation\nbasicConstraints=CA:FALSE\n');
    run('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.crt', '-days', '3650', '-subj', '/CN=Test CA/O=pdfservice tests',
      '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign');
    run('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'leaf.key', '-out', 'leaf.csr', '-subj', '/CN=Jane Signer/O=Example');
    run('x509', '-req', '-in', 'leaf.csr', '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'leaf.crt', '-days', '365', '-extfile', 'leaf.ext');
    const pass = `pass:${STORE_PASSWORD}`;
    const common = ['-inkey', 'leaf.key', '-in', 'leaf.crt', '-certfile', 'ca.crt', '-name', 'jane', '-passout', pass];
    run('pkcs12', '-export', ...common, '-out', 'aes.p12');
    run('pkcs12', '-export', '-certpbe', 'PBE-SHA1-3DES', '-keypbe', 'PBE-SHA1-3DES', '-macalg', 'sha1', ...common, '-out', 'des.p12');
    run('pkcs12', '-export', '-legacy', ...common, '-out', 'legacy.p12');
    run('pkcs12', '-export', '-nokeys', '-in', 'leaf.crt', '-passout', pass, '-out', 'nokey.p12');
    run('ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', 'ec.key');
    run('req', '-new', '-x509', '-key', 'ec.key', '-out', 'ec.crt', '-days', '365', '-subj', '/CN=EC Signer');
    run('pkcs12', '-export', '-inkey', 'ec.key', '-in', 'ec.crt', '-name', 'ec', '-passout', pass, '-out', 'ec.p12');
    return {
      aes: readFileSync(p('aes.p12')),
      des: readFileSync(p('des.p12')),
      legacy: readFileSync(p('legacy.p12')),
      ec: readFileSync(p('ec.p12')),
      noKey: readFileSync(p('nokey.p12')),
      caPem: readFileSync(p('ca.crt'), 'utf8'),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface PdfsigSignature {
  field?: string;
  commonName?: string;
  type?: string;
  ranges?: string;
  total?: boolean;
  validation?: string;
}

/** pdfsig's (poppler) report, one entry per signature. pdfsig exits 0 whatever it finds: its words are what count. */
export function pdfsig(bytes: Buffer | Uint8Array, password?: string): PdfsigSignature[] {
  const out = withTempFile(bytes, (file) => {
    try {
      return execFileSync('pdfsig', [...(password ? ['-upw', password] : []), '-nocert', file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (err) {
      return String((err as { stdout?: string }).stdout ?? '');
    }
  });
  const sigs: PdfsigSignature[] = [];
  for (const line of out.split('\n')) {
    if (/^Signature #\d+:/.test(line)) sigs.push({});
    const current = sigs[sigs.length - 1];
    if (!current) continue;
    const m = /^\s+- ([^:]+): (.*)$/.exec(line);
    if (m) {
      const [, key, value] = m as unknown as [string, string, string];
      if (key === 'Signature Field Name') current.field = value;
      if (key === 'Signer Certificate Common Name') current.commonName = value;
      if (key === 'Signature Type') current.type = value;
      if (key === 'Signed Ranges') current.ranges = value;
      if (key === 'Signature Validation') current.validation = value;
    }
    if (/Total document signed/.test(line)) current.total = true;
    if (/Not total document signed/.test(line)) current.total = false;
  }
  return sigs;
}

/** The certificates of a CMS signature (DER), listed by openssl. */
export function opensslCertificateSubjects(cms: Buffer): string[] {
  return withTempFile(cms, (file) => execFileSync('openssl', ['pkcs7', '-inform', 'DER', '-in', file, '-print_certs', '-noout'], { encoding: 'utf8' }), 'sig.der')
    .split('\n')
    .filter((l) => l.startsWith('subject='));
}

/** The signature value (/Contents) a byte range leaves out, as DER. */
export function signatureValue(bytes: Buffer, byteRange: number[]): Buffer {
  const hex = bytes.subarray(byteRange[1]! + 1, byteRange[2]! - 1).toString('latin1');
  return Buffer.from(hex, 'hex');
}

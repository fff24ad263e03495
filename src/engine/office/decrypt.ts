import { createDecipheriv, createHash } from 'node:crypto';
import { compoundFileStream } from './compound-file.js';

/**
 * Office's default password: Excel and Word encrypt a file that is only "protected" (against editing, not opening)
 * with it, and every Office application, LibreOffice included, opens such a file without asking (MS-OFFCRYPTO 2.3.6.2).
 */
const DEFAULT_PASSWORD = 'VelvetSweatshop';
/** Office's own spin count; a file asking for more is not opened here (it would hold a worker for seconds). */
const MAX_SPIN_COUNT = 100_000;
const SEGMENT = 4096;
/** The block keys of MS-OFFCRYPTO 2.3.4.13 (agile encryption). */
const VERIFIER_INPUT_BLOCK = Buffer.from('fea7d2763b4b9e79', 'hex');
const VERIFIER_VALUE_BLOCK = Buffer.from('d7aa0f6d3061344e', 'hex');
const KEY_VALUE_BLOCK = Buffer.from('146e0be7abacd0d6', 'hex');
const HASHES: Readonly<Record<string, string>> = { SHA1: 'sha1', 'SHA-1': 'sha1', SHA256: 'sha256', 'SHA-256': 'sha256', SHA384: 'sha384', 'SHA-384': 'sha384', SHA512: 'sha512', 'SHA-512': 'sha512' };

interface AgileParams {
  hash: string;
  salt: Buffer;
  blockSize: number;
  keyBytes: number;
}

/**
 * The `decryptOfficeDefault` task: an OOXML package encrypted with agile encryption (Office 2010 and later) under the
 * default password, decrypted; `null` for anything else (another password, another encryption, not an encrypted
 * package), which the caller answers as an encrypted document. Runs in a worker: the key derivation is 100,000
 * SHA-512 rounds (a second on a loaded core).
 */
export function decryptOfficeDefault(input: { bytes: Uint8Array }): { bytes: Uint8Array | null } {
  try {
    return { bytes: decryptAgile(Buffer.from(input.bytes.buffer, input.bytes.byteOffset, input.bytes.byteLength), DEFAULT_PASSWORD) };
  } catch {
    return { bytes: null };
  }
}

function decryptAgile(file: Buffer, password: string): Buffer | null {
  const info = compoundFileStream(file, 'encryptioninfo');
  const pkg = compoundFileStream(file, 'encryptedpackage');
  // Version 4.4 is agile encryption; standard (3.2, 4.2) and extensible are not opened here.
  if (!info || !pkg || info.length < 8 || pkg.length < 8 || info.readUInt16LE(0) !== 4 || info.readUInt16LE(2) !== 4) return null;
  const xml = info.subarray(8).toString('utf8');
  const keyData = attributes(xml, 'keyData');
  const encryptor = attributes(xml, 'encryptedKey');
  if (!keyData || !encryptor) return null;
  const data = params(keyData);
  const key = params(encryptor);
  const spinCount = Number(encryptor.spinCount);
  if (!data || !key || !Number.isInteger(spinCount) || spinCount < 0 || spinCount > MAX_SPIN_COUNT) return null;
  // H(salt + password), then spinCount rounds of H(iterator + H).
  let hash = digest(key.hash, key.salt, Buffer.from(password, 'utf16le'));
  const iterator = Buffer.alloc(4);
  for (let i = 0; i < spinCount; i++) {
    iterator.writeUInt32LE(i);
    hash = digest(key.hash, iterator, hash);
  }
  const derived = (block: Buffer) => sized(digest(key.hash, hash, block), key.keyBytes, 0x36);
  const field = (name: string) => Buffer.from(encryptor[name] ?? '', 'base64');
  const verifierInput = decrypt(key.keyBytes, derived(VERIFIER_INPUT_BLOCK), sized(key.salt, key.blockSize, 0x36), field('encryptedVerifierHashInput')).subarray(0, key.salt.length);
  const verifierValue = decrypt(key.keyBytes, derived(VERIFIER_VALUE_BLOCK), sized(key.salt, key.blockSize, 0x36), field('encryptedVerifierHashValue'));
  const expected = digest(key.hash, verifierInput);
  if (!verifierValue.subarray(0, expected.length).equals(expected)) return null;
  const secret = decrypt(key.keyBytes, derived(KEY_VALUE_BLOCK), sized(key.salt, key.blockSize, 0x36), field('encryptedKeyValue')).subarray(0, data.keyBytes);
  // The package: its size, then 4096-byte segments, each with the IV H(keyData salt + segment number).
  const size = Number(pkg.readBigUInt64LE(0));
  const body = pkg.subarray(8);
  if (size > body.length) return null;
  const parts: Buffer[] = [];
  for (let segment = 0, at = 0; at < size; segment++, at += SEGMENT) {
    const chunk = body.subarray(at, Math.min(body.length, at + SEGMENT));
    const whole = chunk.subarray(0, chunk.length - (chunk.length % 16));
    const number = Buffer.alloc(4);
    number.writeUInt32LE(segment);
    parts.push(decrypt(data.keyBytes, secret, sized(digest(data.hash, data.salt, number), data.blockSize, 0x36), whole));
  }
  return Buffer.concat(parts).subarray(0, size);
}

/** The attributes of the first element named `name` (any prefix). */
function attributes(xml: string, name: string): Record<string, string> | null {
  const element = new RegExp(`<(?:[\\w.-]+:)?${name}\\b([^>]*)>`).exec(xml);
  if (!element) return null;
  return Object.fromEntries([...element[1]!.matchAll(/([\w:.-]+)\s*=\s*"([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
}

function params(attrs: Record<string, string>): AgileParams | null {
  const hash = HASHES[attrs.hashAlgorithm ?? ''];
  const keyBits = Number(attrs.keyBits);
  const blockSize = Number(attrs.blockSize);
  if (!hash || attrs.cipherAlgorithm !== 'AES' || attrs.cipherChaining !== 'ChainingModeCBC' || ![128, 192, 256].includes(keyBits) || blockSize !== 16) return null;
  return { hash, salt: Buffer.from(attrs.saltValue ?? '', 'base64'), blockSize, keyBytes: keyBits / 8 };
}

function digest(hash: string, ...parts: Buffer[]): Buffer {
  const h = createHash(hash);
  for (const part of parts) h.update(part);
  return h.digest();
}

/** Truncated, or padded with `pad` bytes, to `length` (MS-OFFCRYPTO 2.3.4.12). */
function sized(bytes: Buffer, length: number, pad: number): Buffer {
  return bytes.length >= length ? bytes.subarray(0, length) : Buffer.concat([bytes, Buffer.alloc(length - bytes.length, pad)]);
}

function decrypt(keyBytes: number, key: Buffer, iv: Buffer, data: Buffer): Buffer {
  const decipher = createDecipheriv(`aes-${keyBytes * 8}-cbc`, key, iv);
  decipher.setAutoPadding(false);
  return Buffer.concat([decipher.update(data.subarray(0, data.length - (data.length % 16))), decipher.final()]);
}

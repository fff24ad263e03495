/**
 * The parts of the PDF standard security handler (ISO 32000-2, 7.6.4) that
 * MuPDF does not expose: whether a given owner password is the document's.
 * MuPDF refuses to authenticate an empty owner password while the user
 * password is set (as Acrobat does), so "is a permissions password set?"
 * cannot be answered through its API for such files. Also AES-256's checks of
 * a password in full (Algorithms 2.A, 11-13), which cost 10-12 ms a hash in
 * MuPDF's WebAssembly against 1.5 ms here (issue 38). Pure: node:crypto only.
 */
import { createCipheriv, createDecipheriv, createHash, hash } from 'node:crypto';

/** The 32-byte padding string of Algorithm 2. */
const PAD = Uint8Array.from([
  0x28, 0xbf, 0x4e, 0x5e, 0x4e, 0x75, 0x8a, 0x41, 0x64, 0x00, 0x4e, 0x56, 0xff, 0xfa, 0x01, 0x08,
  0x2e, 0x2e, 0x00, 0xb6, 0xd0, 0x68, 0x3e, 0x80, 0x2f, 0x0c, 0xa9, 0xfe, 0x64, 0x53, 0x69, 0x7a,
]);

export interface StandardEncryption {
  /** The handler's revision, /R. */
  revision: number;
  /** /Length in bits (40 when absent). */
  lengthBits: number;
  /** The /O and /U strings. */
  owner: Uint8Array;
  user: Uint8Array;
  /** Revisions 5-6: the /OE, /UE and /Perms strings (empty when absent). */
  ownerKey?: Uint8Array;
  userKey?: Uint8Array;
  perms?: Uint8Array;
}

function padded(password: Uint8Array): Uint8Array {
  const out = new Uint8Array(32);
  const n = Math.min(32, password.length);
  out.set(password.subarray(0, n));
  out.set(PAD.subarray(0, 32 - n), n);
  return out;
}

/** RC4 (node's OpenSSL 3 has it only in its legacy provider, not loaded): the handler's revisions 2-4 and their strings and streams. */
export function rc4(key: Uint8Array, data: Uint8Array): Uint8Array {
  const s = new Uint8Array(256);
  for (let i = 0; i < 256; i++) s[i] = i;
  // Swapped through a variable: a destructuring swap made an array per byte (whole streams go through here).
  for (let i = 0, j = 0; i < 256; i++) {
    const t = s[i]!;
    j = (j + t + key[i % key.length]!) & 0xff;
    s[i] = s[j]!;
    s[j] = t;
  }
  const out = new Uint8Array(data.length);
  for (let k = 0, i = 0, j = 0; k < data.length; k++) {
    i = (i + 1) & 0xff;
    const t = s[i]!;
    j = (j + t) & 0xff;
    const u = s[j]!;
    s[i] = u;
    s[j] = t;
    out[k] = data[k]! ^ s[(t + u) & 0xff]!;
  }
  return out;
}

function digest(algorithm: 'md5' | 'sha256' | 'sha384' | 'sha512', ...parts: Uint8Array[]): Uint8Array {
  const hash = createHash(algorithm);
  for (const part of parts) hash.update(part);
  return new Uint8Array(hash.digest());
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

/**
 * Revisions 2 to 4 (Algorithm 7): the owner password decrypts /O into the
 * padded user password. Given the user password that opened the document,
 * the owner password is right when the two agree.
 */
function ownerMatchesRc4(enc: StandardEncryption, ownerPassword: Uint8Array, userPassword: Uint8Array): boolean {
  const key = ownerRc4Key(enc.revision, Math.max(5, Math.min(16, enc.lengthBits >> 3)), ownerPassword);
  let data = enc.owner.subarray(0, 32);
  if (enc.revision === 2) {
    data = rc4(key, data);
  } else {
    for (let i = 19; i >= 0; i--) data = rc4(key.map((b) => b ^ i), data);
  }
  return equalBytes(data, padded(userPassword));
}

/** Revisions 2-4, Algorithm 3 step a-d: the RC4 key the owner password (or the user password when it is empty) gives. */
function ownerRc4Key(revision: number, lengthBytes: number, ownerPassword: Uint8Array): Uint8Array {
  let hash = digest('md5', padded(ownerPassword));
  if (revision >= 3) for (let i = 0; i < 50; i++) hash = digest('md5', hash);
  return hash.subarray(0, revision === 2 ? 5 : lengthBytes);
}

/** RC4 with the key, then (revision 3 and later) 19 more times with each byte of the key XORed with 1 to 19. */
function rc4Rounds(revision: number, key: Uint8Array, data: Uint8Array): Uint8Array {
  let out = rc4(key, data);
  if (revision >= 3) for (let i = 1; i <= 19; i++) out = rc4(key.map((b) => b ^ i), out);
  return out;
}

function int32LE(value: number): Uint8Array {
  const out = Buffer.alloc(4);
  out.writeInt32LE(value | 0);
  return new Uint8Array(out);
}

/** What a new standard security handler is made from; passwords already encoded (passwords.ts, encodePassword). */
export interface NewStandardEncryption {
  /** 2 (RC4-40), 3 (RC4-128), 4 (AES-128) or 6 (AES-256). */
  revision: 2 | 3 | 4 | 6;
  userPassword: Uint8Array;
  ownerPassword: Uint8Array;
  /** /P, signed. */
  permissionBits: number;
  /** Revisions 4 and 6: whether metadata streams are encrypted. */
  encryptMetadata: boolean;
  /** The first string of the trailer's /ID (revisions 2-4 mix it into the key). */
  id0: Uint8Array;
  /** Fresh random bytes: the file key, salts and padding come from here (crypto.randomBytes in the service). */
  random: (n: number) => Uint8Array;
}

/** A new handler's dictionary strings and the file key that encrypts the document's strings and streams. */
export interface StandardKeys {
  fileKey: Uint8Array;
  owner: Uint8Array;
  user: Uint8Array;
  /** Revision 6 only. */
  ownerKey?: Uint8Array;
  userKey?: Uint8Array;
  perms?: Uint8Array;
}

/**
 * The /O, /U (and for revision 6 /OE, /UE, /Perms) of a new standard security handler, and its file key. Revision 6
 * (Algorithms 8-10): the file key is 32 random bytes, sealed under each password's hash. Revisions 2-4 (Algorithms 2-5):
 * the file key follows from the user password, /O, /P and the /ID, as those revisions define it, the randomness being
 * the /ID's and /U's padding.
 */
export function newStandardKeys(spec: NewStandardEncryption): StandardKeys {
  const { revision, userPassword, ownerPassword, permissionBits } = spec;
  if (revision === 6) {
    const fileKey = spec.random(32);
    const sealed = (password: Uint8Array, userData: Uint8Array) => {
      const salts = spec.random(16);
      const hash = hashR56(6, password.subarray(0, 127), salts.subarray(0, 8), userData);
      const cipher = createCipheriv('aes-256-cbc', hashR56(6, password.subarray(0, 127), salts.subarray(8, 16), userData), new Uint8Array(16));
      cipher.setAutoPadding(false);
      return { check: concat(hash, salts), key: new Uint8Array(cipher.update(fileKey)) };
    };
    const user = sealed(userPassword, new Uint8Array(0));
    const owner = sealed(ownerPassword, user.check);
    const block = new Uint8Array(16);
    block.set(int32LE(permissionBits), 0);
    block.set([0xff, 0xff, 0xff, 0xff], 4);
    block.set(Buffer.from(`${spec.encryptMetadata ? 'T' : 'F'}adb`, 'latin1'), 8);
    block.set(spec.random(4), 12);
    const ecb = createCipheriv('aes-256-ecb', fileKey, null);
    ecb.setAutoPadding(false);
    return { fileKey, owner: owner.check, user: user.check, ownerKey: owner.key, userKey: user.key, perms: new Uint8Array(ecb.update(block)) };
  }
  const lengthBytes = revision === 2 ? 5 : 16;
  const owner = rc4Rounds(revision, ownerRc4Key(revision, lengthBytes, ownerPassword.length > 0 ? ownerPassword : userPassword), padded(userPassword));
  const fileKey = fileKeyRc4(spec, owner, lengthBytes);
  let user: Uint8Array;
  if (revision === 2) {
    user = rc4(fileKey, PAD);
  } else {
    // Algorithm 5: 16 bytes of check, then 16 arbitrary bytes (random, as qpdf's are not: any value is right).
    user = concat(rc4Rounds(revision, fileKey, digest('md5', PAD, spec.id0)), spec.random(16));
  }
  return { fileKey, owner, user };
}

/** Algorithm 2: the file key of revisions 2-4. */
function fileKeyRc4(spec: NewStandardEncryption, owner: Uint8Array, lengthBytes: number): Uint8Array {
  const parts = [padded(spec.userPassword), owner, int32LE(spec.permissionBits), spec.id0];
  if (spec.revision >= 4 && !spec.encryptMetadata) parts.push(Uint8Array.from([0xff, 0xff, 0xff, 0xff]));
  let hash = digest('md5', ...parts);
  if (spec.revision >= 3) for (let i = 0; i < 50; i++) hash = digest('md5', hash.subarray(0, lengthBytes));
  return hash.subarray(0, lengthBytes);
}

/**
 * Algorithm 1 (revisions 2-4): the key of one object's strings and streams, from the file key and the object's number
 * and generation ("sAlT" added for AES-128). Revision 6 uses the file key itself.
 */
export function objectKey(fileKey: Uint8Array, num: number, gen: number, aes: boolean): Uint8Array {
  const input = Buffer.alloc(fileKey.length + (aes ? 9 : 5));
  input.set(fileKey);
  input.set([num & 0xff, (num >> 8) & 0xff, (num >> 16) & 0xff, gen & 0xff, (gen >> 8) & 0xff], fileKey.length);
  if (aes) input.write('sAlT', fileKey.length + 5, 'latin1');
  // One call per object: the one-shot hash, without a Hash object's set-up (a third of the time of small objects).
  return new Uint8Array(hash('md5', input, 'buffer')).subarray(0, Math.min(fileKey.length + 5, 16));
}

function concat(...parts: Uint8Array[]): Uint8Array {
  return new Uint8Array(Buffer.concat(parts));
}

/** The SHA-2 of Algorithm 2.B's rounds, by the remainder of the sum of E's first 16 bytes divided by 3. */
const ROUND_HASH = ['sha256', 'sha384', 'sha512'] as const;

/**
 * Revision 6's hash (Algorithm 2.B): rounds of AES-128-CBC and SHA-2 until the last byte allows stopping. In node's
 * native crypto: about 1.5 ms, against 10-12 ms for MuPDF's in WebAssembly (issue 38), so the service asks MuPDF
 * only for what needs its keys.
 */
function hash2B(password: Uint8Array, salt: Uint8Array, userKey: Uint8Array): Uint8Array {
  let k: Buffer = createHash('sha256').update(password).update(salt).update(userKey).digest();
  let e: Buffer = Buffer.alloc(1);
  // K1 is rebuilt every round (64 or more) in one block sized for the longest K (64 bytes): a new 5-15 KB block per
  // round was 1 MB of external garbage per hash, 4 MB per AES-256 encryption's check (issue 38: its worker's
  // collections).
  const k1Block = Buffer.allocUnsafe((password.length + 64 + userKey.length) * 64);
  for (let round = 0; round < 64 || e[e.length - 1]! > round - 32; round++) {
    // K1: the password, K and the user key, 64 times over (filled by doubling the copied part).
    const n = password.length + k.length + userKey.length;
    const k1 = k1Block.subarray(0, n * 64);
    k1.set(password);
    k1.set(k, password.length);
    k1.set(userKey, password.length + k.length);
    for (let filled = n; filled < k1.length; filled *= 2) k1.copyWithin(filled, 0, Math.min(filled, k1.length - filled));
    const cipher = createCipheriv('aes-128-cbc', k.subarray(0, 16), k.subarray(16, 32));
    cipher.setAutoPadding(false);
    // K1 is a multiple of 16 bytes long: update() answers all of it, final() nothing.
    e = cipher.update(k1);
    let sum = 0;
    for (let i = 0; i < 16; i++) sum += e[i]!;
    // The one-shot hash: no Hash object made per round (its set-up was a third of the round's hashing).
    k = hash(ROUND_HASH[sum % 3]!, e, 'buffer');
  }
  return new Uint8Array(k.subarray(0, 32));
}

/** Revisions 5 and 6: the hash of a password with a salt (and, for the owner password, the 48 bytes of /U). */
function hashR56(revision: number, password: Uint8Array, salt: Uint8Array, userKey: Uint8Array): Uint8Array {
  if (revision === 5) return digest('sha256', password, salt, userKey);
  if (!remembered) return hash2B(password, salt, userKey);
  // The exact input bytes are the key: the same hash of different bytes (a salt or /U read back otherwise) is run anew.
  const key = `${password.length}:${salt.length}:${Buffer.from(password).toString('latin1')}${Buffer.from(salt).toString('latin1')}${Buffer.from(userKey).toString('latin1')}`;
  let out = remembered.get(key);
  if (!out) remembered.set(key, (out = hash2B(password, salt, userKey)));
  return new Uint8Array(out);
}

/** The revision 6 hashes withRememberedHashes keeps while its work runs; none outside it. */
let remembered: Map<string, Uint8Array> | undefined;

/**
 * Runs `work` (synchronous) with each revision 6 hash (Algorithm 2.B: 1.5-2.5 ms of node's crypto each) computed once
 * for the same password, salt and /U bytes. Encrypting a document runs four (/U, /UE, /O, /OE) and its check reads the
 * written dictionary back and runs the same four on the same bytes (issue 38: half of a 1-page AES-256 encryption's
 * worker time). The hash is a pure function of those bytes, so a second run can only repeat the first: the check still
 * compares each hash with the bytes the file holds, and any byte written otherwise (a salt, /U) is a different input,
 * hashed anew. Forgotten, and the results zeroed, when `work` ends: no password-derived value outlives the task.
 */
export function withRememberedHashes<T>(work: () => T): T {
  if (remembered) return work();
  remembered = new Map();
  try {
    return work();
  } finally {
    for (const hashed of remembered.values()) hashed.fill(0);
    remembered = undefined;
  }
}

/**
 * Revisions 5 and 6 (Algorithm 11): whether `userPassword` (SASLprep'd UTF-8, at most 127 bytes) is the document's
 * user password; undefined for other revisions (the answer needs the RC4 or MD5 steps, which MuPDF does cheaply).
 */
export function isUserPassword(enc: StandardEncryption, userPassword: Uint8Array): boolean | undefined {
  if (enc.revision !== 5 && enc.revision !== 6) return undefined;
  if (enc.user.length < 48) return false;
  return equalBytes(hashR56(enc.revision, userPassword.subarray(0, 127), enc.user.subarray(32, 40), new Uint8Array(0)), enc.user.subarray(0, 32));
}

/**
 * Revisions 5 and 6 (Algorithm 2.A): the file key `password` (SASLprep'd UTF-8) gives as the document's owner
 * password (through /OE) or its user password (through /UE); undefined when it is not that password, or the
 * dictionary has no key for it.
 */
export function fileKeyOf(enc: StandardEncryption, password: Uint8Array, as: 'owner' | 'user'): Uint8Array | undefined {
  if (enc.revision !== 5 && enc.revision !== 6) return undefined;
  const own = as === 'owner';
  const hashed = own ? enc.owner : enc.user;
  const encrypted = own ? enc.ownerKey : enc.userKey;
  if (hashed.length < 48 || enc.user.length < 48 || !encrypted || encrypted.length < 32) return undefined;
  const pw = password.subarray(0, 127);
  const userData = own ? enc.user.subarray(0, 48) : new Uint8Array(0);
  if (!equalBytes(hashR56(enc.revision, pw, hashed.subarray(32, 40), userData), hashed.subarray(0, 32))) return undefined;
  const decipher = createDecipheriv('aes-256-cbc', hashR56(enc.revision, pw, hashed.subarray(40, 48), userData), new Uint8Array(16));
  decipher.setAutoPadding(false);
  return new Uint8Array(decipher.update(encrypted.subarray(0, 32)));
}

/**
 * Revisions 5 and 6 (Algorithm 13): whether /Perms, decrypted with the file key, holds the /P and /EncryptMetadata of
 * the dictionary, and the "adb" marker.
 */
export function permsMatch(enc: StandardEncryption, fileKey: Uint8Array, permissionBits: number, encryptMetadata: boolean): boolean {
  if (!enc.perms || enc.perms.length < 16) return false;
  const decipher = createDecipheriv('aes-256-ecb', fileKey, null);
  decipher.setAutoPadding(false);
  const perms = decipher.update(enc.perms.subarray(0, 16));
  return perms.readInt32LE(0) === (permissionBits | 0) && perms.toString('latin1', 8, 12) === `${encryptMetadata ? 'T' : 'F'}adb`;
}

/**
 * A string's or stream's bytes as AES-256 (AESV3) encrypted them with the file key: the first 16 bytes the IV, the
 * rest CBC with PKCS#5 padding; undefined where the padding is not whole (the wrong key, or bytes not so encrypted).
 */
export function decryptAes256(fileKey: Uint8Array, data: Uint8Array): Uint8Array | undefined {
  if (data.length < 32 || data.length % 16 !== 0) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-cbc', fileKey, data.subarray(0, 16));
    return new Uint8Array(Buffer.concat([decipher.update(data.subarray(16)), decipher.final()]));
  } catch {
    return undefined;
  }
}

/**
 * Whether `ownerPassword` (already encoded: PDFDocEncoding for revisions 2-4,
 * SASLprep'd UTF-8 for 5-6, truncated as the revision requires) is the
 * document's owner password. Revisions 2-4 need the user password that opened
 * the document; 5 and 6 do not.
 */
export function isOwnerPassword(enc: StandardEncryption, ownerPassword: Uint8Array, userPassword: Uint8Array): boolean {
  if (enc.revision >= 5) {
    if (enc.owner.length < 48 || enc.user.length < 48) return false;
    const salt = enc.owner.subarray(32, 40);
    const userKey = enc.user.subarray(0, 48);
    const password = ownerPassword.subarray(0, 127);
    return equalBytes(hashR56(enc.revision, password, salt, userKey), enc.owner.subarray(0, 32));
  }
  if (enc.owner.length < 32) return false;
  return ownerMatchesRc4(enc, ownerPassword, userPassword);
}

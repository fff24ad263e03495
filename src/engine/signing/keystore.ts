/**
 * PKCS#12 key stores (.pfx, .p12) read in memory: the private key chosen by
 * its alias and the certificates that go with it. node-forge reads the
 * container (MAC with SHA-1 or SHA-2; bags in 3DES, RC2-40 as `openssl
 * -legacy` writes them, or PBES2/AES-256 as OpenSSL 3 writes by default);
 * Node's crypto takes the key from there (RSA and EC). Nothing here touches
 * the disk, and nothing read here is kept after the request.
 */
import { createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto';
import forge from 'node-forge';
import { EngineError } from '../errors.js';

export interface KeyStoreRequest {
  keystorePassword?: string | undefined;
  keyAlias?: string | undefined;
  /** The private key's own password, when it differs from the store's. */
  keyPassword?: string | undefined;
}

export interface SigningKey {
  key: KeyObject;
  /** The signer's certificate first, then the issuers found in the store, up to the root. */
  chain: X509Certificate[];
  alias: string;
}

interface Bag {
  type: string;
  attributes: Record<string, unknown[] | undefined>;
  key?: forge.pki.rsa.PrivateKey | null;
  cert?: forge.pki.Certificate | null;
  asn1?: forge.asn1.Asn1;
}

const KEY_BAG = forge.pki.oids['keyBag'];
const SHROUDED_KEY_BAG = forge.pki.oids['pkcs8ShroudedKeyBag'];
const CERT_BAG = forge.pki.oids['certBag'];

function malformed(message: string): EngineError {
  return new EngineError('KEYSTORE_INVALID', message);
}

function derBytes(asn1: forge.asn1.Asn1): Buffer {
  return Buffer.from(forge.asn1.toDer(asn1).getBytes(), 'binary');
}

/**
 * Parses the container. node-forge takes one password for the MAC, the
 * encrypted certificate bags and the keys. A key with a password of
 * its own is decrypted with `keyPassword` by handing forge's key decryption
 * that password for the duration of the (synchronous) parse.
 */
function parse(bytes: Uint8Array, storePassword: string, keyPassword: string | undefined): Bag[] {
  let asn1: forge.asn1.Asn1;
  try {
    asn1 = forge.asn1.fromDer(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('binary'), { strict: false } as never);
  } catch {
    throw malformed('The key store is not a PKCS#12 file (.p12, .pfx): it is not DER');
  }
  const pki = forge.pki as unknown as { decryptPrivateKeyInfo: (obj: forge.asn1.Asn1, password: string) => forge.asn1.Asn1 | null };
  const original = pki.decryptPrivateKeyInfo;
  if (keyPassword !== undefined && keyPassword !== storePassword) pki.decryptPrivateKeyInfo = (obj) => original(obj, keyPassword);
  try {
    const p12 = forge.pkcs12.pkcs12FromAsn1(asn1, false, storePassword);
    return p12.safeContents.flatMap((sc) => sc.safeBags as unknown as Bag[]);
  } catch (err) {
    const message = err instanceof Error ? err.message : '';
    if (/MAC could not be verified/i.test(message)) throw new EngineError('KEYSTORE_PASSWORD_INVALID', 'The key store password (keystorePassword) is wrong');
    if (/ShroudedKeyBag/i.test(message)) {
      throw new EngineError('KEYSTORE_PASSWORD_INVALID', keyPassword !== undefined && keyPassword !== storePassword ? 'The key password (keyPassword) does not decrypt the private key' : 'The key store password does not decrypt the private key: send the key\'s own password in keyPassword');
    }
    if (/unsupported|not supported/i.test(message)) throw malformed('The key store uses an encryption or MAC algorithm the service does not read');
    throw malformed('The key store is not a readable PKCS#12 file (.p12, .pfx)');
  } finally {
    pki.decryptPrivateKeyInfo = original;
  }
}

function certificateOf(bag: Bag): X509Certificate | undefined {
  try {
    if (bag.cert) return new X509Certificate(derBytes(forge.pki.certificateToAsn1(bag.cert)));
    if (bag.asn1) return new X509Certificate(derBytes(bag.asn1));
  } catch {
    /* not an X.509 certificate Node can read */
  }
  return undefined;
}

function privateKeyOf(bag: Bag): KeyObject {
  try {
    if (bag.key) return createPrivateKey({ key: derBytes(forge.pki.privateKeyToAsn1(bag.key)), format: 'der', type: 'pkcs1' });
    if (bag.asn1) return createPrivateKey({ key: derBytes(bag.asn1), format: 'der', type: 'pkcs8' });
  } catch {
    /* fall through */
  }
  throw new EngineError('KEYSTORE_PASSWORD_INVALID', 'The private key could not be read: its password (keyPassword) is wrong, or its kind of key is not supported');
}

function friendlyName(bag: Bag): string | undefined {
  const names = bag.attributes['friendlyName'];
  return typeof names?.[0] === 'string' ? names[0] : undefined;
}

function localKeyId(bag: Bag): string | undefined {
  const ids = bag.attributes['localKeyId'];
  return typeof ids?.[0] === 'string' ? Buffer.from(ids[0], 'binary').toString('hex') : undefined;
}

/** The issuers of `leaf` among `pool`, in order, as far as the pool goes (a self-signed certificate ends the chain). */
function chainOf(leaf: X509Certificate, pool: X509Certificate[]): X509Certificate[] {
  const chain = [leaf];
  let current = leaf;
  while (chain.length < 10 && current.issuer !== current.subject) {
    const issuer = pool.find((c) => !chain.includes(c) && current.checkIssued(c) && current.verify(c.publicKey));
    if (!issuer) break;
    chain.push(issuer);
    current = issuer;
  }
  return chain;
}

/**
 * The signing key and its certificate chain from a PKCS#12 key store.
 * 400 KEYSTORE_PASSWORD_INVALID for a wrong password, KEYSTORE_ALIAS_NOT_FOUND
 * (with `aliases`) for an unknown alias or a missing one when the store holds
 * several keys, KEYSTORE_NO_PRIVATE_KEY for a store of certificates only,
 * KEYSTORE_INVALID for anything that is not a usable PKCS#12 file.
 */
export function readKeyStore(bytes: Uint8Array, request: KeyStoreRequest): SigningKey {
  if (bytes.length === 0) throw malformed('The key store is empty');
  const bags = parse(bytes, request.keystorePassword ?? '', request.keyPassword);
  const keyBags = bags.filter((b) => b.type === KEY_BAG || b.type === SHROUDED_KEY_BAG);
  const certs = bags.filter((b) => b.type === CERT_BAG).map((b) => ({ bag: b, cert: certificateOf(b) }));
  if (keyBags.length === 0) throw new EngineError('KEYSTORE_NO_PRIVATE_KEY', 'The key store holds no private key (only certificates): export it with its key');
  const aliases = keyBags.map((b, i) => friendlyName(b) ?? `#${i + 1}`);
  let index: number;
  if (request.keyAlias !== undefined && request.keyAlias !== '') {
    index = aliases.indexOf(request.keyAlias);
    if (index < 0) throw new EngineError('KEYSTORE_ALIAS_NOT_FOUND', `The key store has no key with the alias ${JSON.stringify(request.keyAlias)}; its aliases: ${aliases.join(', ')}`, { aliases });
  } else if (keyBags.length > 1) {
    throw new EngineError('KEYSTORE_ALIAS_NOT_FOUND', `The key store holds ${keyBags.length} keys: name one in keyAlias (${aliases.join(', ')})`, { aliases });
  } else {
    index = 0;
  }
  const bag = keyBags[index]!;
  const key = privateKeyOf(bag);
  if (key.asymmetricKeyType !== 'rsa' && key.asymmetricKeyType !== 'ec') {
    throw malformed(`The key is of a kind the service does not sign with (${key.asymmetricKeyType ?? 'unknown'}): RSA and EC keys are supported`);
  }
  const pool = certs.flatMap((c) => (c.cert ? [c.cert] : []));
  // The key's certificate: the one whose public key matches (localKeyId only says which bags belong together).
  const id = localKeyId(bag);
  const matching = pool.filter((c) => c.checkPrivateKey(key));
  const leaf = matching.find((c) => id !== undefined && certs.some((x) => x.cert === c && localKeyId(x.bag) === id)) ?? matching[0];
  if (!leaf) throw malformed('The key store holds no certificate for its private key');
  return { key, chain: chainOf(leaf, pool), alias: aliases[index]! };
}

import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

const NONCE_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Seals the secrets the service keeps outside its memory (mapped DMS
 * accounts; docs/dms.md) with AES-256-GCM under the key of
 * PDFSERVICE_SECRETS_KEY: a fresh 96-bit nonce per seal, and a context (such
 * as the user a secret belongs to) as associated data, so a sealed value
 * copied to another context does not open. One home for the rule, so every
 * secret at rest is sealed alike.
 */
export class Sealer {
  /** Names the key without revealing it (an HMAC of a fixed label): a file records it, so a wrong key is told at start. */
  readonly keyId: string;

  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('a secrets key has 32 bytes');
    this.keyId = createHmac('sha256', key).update('pdfservice secrets key id').digest('base64url').slice(0, 16);
  }

  /** base64 of nonce, ciphertext and tag. */
  seal(context: string, plaintext: string): string {
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, nonce);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return Buffer.concat([nonce, body, cipher.getAuthTag()]).toString('base64');
  }

  /** The plaintext; throws when the key or the context is not the one it was sealed with, or it was changed. */
  open(context: string, sealed: string): string {
    const bytes = Buffer.from(sealed, 'base64');
    if (bytes.length < NONCE_BYTES + TAG_BYTES) throw new Error('too short to be sealed');
    const decipher = createDecipheriv('aes-256-gcm', this.key, bytes.subarray(0, NONCE_BYTES));
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    return Buffer.concat([decipher.update(bytes.subarray(NONCE_BYTES, bytes.length - TAG_BYTES)), decipher.final()]).toString('utf8');
  }
}

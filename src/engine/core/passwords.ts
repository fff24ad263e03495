/**
 * Document passwords as the standard security handler takes them: revisions
 * 2-4 use PDFDocEncoding bytes, at most 32 of them; revisions 5-6 use UTF-8
 * after SASLprep (RFC 4013), at most 127 bytes (ISO 32000-2, 7.6.4.3.3).
 */
import { createRequire } from 'node:module';

// Loaded with the first password that needs it: the package builds its code point tables when loaded, about 50 ms of
// CPU in each engine worker at every start (docs/testing.md), and most documents have no password.
let saslprep: typeof import('@mongodb-js/saslprep').saslprep | undefined;

/** The longest password each kind of handler uses, in bytes. */
const MAX_PASSWORD_BYTES = { rc4: 32, aes256: 127 } as const;

/** SASLprep, or undefined when the password holds characters it prohibits. */
export function prepareUnicode(password: string): string | undefined {
  saslprep ??= (createRequire(import.meta.url)('@mongodb-js/saslprep') as typeof import('@mongodb-js/saslprep')).saslprep;
  try {
    return saslprep(password);
  } catch {
    return undefined;
  }
}

/**
 * Latin-1 letters, digits and symbols: where PDFDocEncoding and Unicode
 * agree. Control characters (and the C1 range, which PDFDocEncoding gives
 * other meanings) are refused rather than guessed.
 */
function isPdfDocText(password: string): boolean {
  for (const ch of password) {
    const c = ch.codePointAt(0)!;
    if (c < 0x20 || (c >= 0x7f && c < 0xa0) || c > 0xff) return false;
  }
  return true;
}

/**
 * The bytes a handler of `revision` hashes for `password`, or undefined when
 * the password cannot be represented (then it matches nothing).
 */
export function encodePassword(password: string, revision: number): Uint8Array | undefined {
  if (revision >= 5) {
    const prepared = prepareUnicode(password);
    return prepared === undefined ? undefined : new Uint8Array(Buffer.from(prepared, 'utf8')).subarray(0, MAX_PASSWORD_BYTES.aes256);
  }
  if (!isPdfDocText(password)) return undefined;
  return new Uint8Array(Buffer.from(password, 'latin1')).subarray(0, MAX_PASSWORD_BYTES.rc4);
}

/**
 * Why a new password cannot be used with the handler (AES-256: revision 6;
 * the others: revisions 2-4), or undefined when it can. Passwords are not
 * truncated silently: a longer one would open the document by its prefix.
 */
export function newPasswordProblem(password: string, aes256: boolean): string | undefined {
  if (aes256) {
    const prepared = prepareUnicode(password);
    if (prepared === undefined) return 'contains characters SASLprep prohibits (control or private-use characters, unassigned code points)';
    const bytes = Buffer.byteLength(prepared, 'utf8');
    if (bytes > MAX_PASSWORD_BYTES.aes256) return `is ${bytes} UTF-8 bytes after SASLprep; AES-256 allows at most ${MAX_PASSWORD_BYTES.aes256}`;
    return undefined;
  }
  if (!isPdfDocText(password)) return 'may hold only Latin-1 letters, digits and symbols with RC4 and AES-128 (PDFDocEncoding); use AES-256 (encryptType 3) for other characters';
  if (password.length > MAX_PASSWORD_BYTES.rc4) return `is ${password.length} bytes; RC4 and AES-128 allow at most ${MAX_PASSWORD_BYTES.rc4}`;
  return undefined;
}

import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Password hashes: scrypt with a random 16-byte salt. The cost parameters are
 * written into every hash (`scrypt$N$r$p$salt$hash`, salt and hash base64), so
 * they can be raised later: old hashes keep verifying with their own
 * parameters, new and changed passwords get the current ones.
 *
 * N=2^15, r=8 (32 MiB, roughly 50-100 ms per hash on a small server) is a
 * compromise: HTTP Basic scripts pay it on the first request of every minute
 * (see the verified-credentials cache in index.ts), logins on every attempt.
 * N is PDFSERVICE_PASSWORD_HASH_COST (log2 N): the test suites lower it (docs/testing.md).
 */
export const DEFAULT_HASH_COST = 15;
const CURRENT = { r: 8, p: 1 } as const;
const SALT_BYTES = 16;
const KEY_BYTES = 32;

/** Stored hashes are trusted only within these bounds, so a tampered file cannot make verification hang or exhaust memory. */
const LIMITS = { maxLogN: 20, maxR: 32, maxP: 16 };

interface ParsedHash {
  N: number;
  r: number;
  p: number;
  salt: Buffer;
  key: Buffer;
}

function derive(password: string, salt: Buffer, N: number, r: number, p: number, length: number): Promise<Buffer> {
  // Node refuses scrypt when 128*N*r exceeds maxmem (32 MiB by default): allow twice that.
  const options: ScryptOptions = { N, r, p, maxmem: 256 * N * r + 1024 * 1024 };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, length, options, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

function parse(stored: string): ParsedHash | null {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return null;
  const [N, r, p] = parts.slice(1, 4).map((s) => (/^\d{1,8}$/.test(s!) ? Number(s) : NaN)) as [number, number, number];
  const powerOfTwo = Number.isInteger(N) && N > 1 && (N & (N - 1)) === 0 && N <= 2 ** LIMITS.maxLogN;
  if (!powerOfTwo || !(r >= 1 && r <= LIMITS.maxR) || !(p >= 1 && p <= LIMITS.maxP)) return null;
  const salt = Buffer.from(parts[4]!, 'base64');
  const key = Buffer.from(parts[5]!, 'base64');
  if (salt.length < 8 || key.length < 16) return null;
  return { N, r, p, salt, key };
}

/** A new hash of `password` with the current parameters (N = 2^cost) and a fresh salt. */
export async function hashPassword(password: string, cost = DEFAULT_HASH_COST): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const { r, p } = CURRENT;
  const N = 2 ** cost;
  const key = await derive(password, salt, N, r, p, KEY_BYTES);
  return ['scrypt', N, r, p, salt.toString('base64'), key.toString('base64')].join('$');
}

/** Whether `password` matches `stored`, compared in constant time. A malformed stored hash matches nothing. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parse(stored);
  if (!parsed) return false;
  const key = await derive(password, parsed.salt, parsed.N, parsed.r, parsed.p, parsed.key.length);
  return timingSafeEqual(key, parsed.key);
}

/** Whether a stored hash is well-formed (used when loading the users file). */
export function isPasswordHash(stored: string): boolean {
  return parse(stored) !== null;
}

const dummies = new Map<number, Promise<string>>();

/**
 * Spends the same work as verifying a real password (of the current cost), for user names that do not
 * exist, so response times do not tell which names exist. Always false.
 */
export async function verifyAgainstDummy(password: string, cost = DEFAULT_HASH_COST): Promise<false> {
  let dummy = dummies.get(cost);
  if (!dummy) dummies.set(cost, (dummy = hashPassword(randomBytes(18).toString('base64'), cost)));
  await verifyPassword(password, await dummy);
  return false;
}

/** A strong random password (144 bits, URL-safe characters), for the first admin. */
export function generatePassword(): string {
  return randomBytes(18).toString('base64url');
}

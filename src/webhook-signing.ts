import { createHmac, randomBytes } from 'node:crypto';

/**
 * Standard Webhooks signing (docs/webhooks.md): the users' secrets (auth/users.ts keeps them) and the signature of a
 * webhook (operations/jobs/webhooks.ts sends it). Shared, as both layers need the one format.
 */

export const SECRET_PREFIX = 'whsec_';

/** A new signing secret: `whsec_` and 32 random bytes in base64, the form Standard Webhooks libraries read. */
export function newWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64');
}

/** The webhook-signature value: `v1,` and the base64 HMAC-SHA256 of `id.timestamp.body` under the secret's bytes. */
export function webhookSignature(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
  return 'v1,' + createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
}

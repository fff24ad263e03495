/**
 * Query values that are secrets, hidden wherever a URL is logged. The service takes no credential in a query, but
 * clients put them there by mistake (an OAuth habit: `?access_token=`; a pre-signed S3 link; a password in a form
 * sent by GET), and a log is read by more people than the credential's owner.
 *
 * A parameter is secret by its name, compared without case and after percent-decoding: the exact names below, or a
 * name containing token, passw, secret, signature, credential or api-key/api_key/apikey (so `refresh_token`,
 * `X-Amz-Security-Token`, `client_secret`). Its value becomes `[REDACTED]`; the name stays, so the log still shows
 * what the client sent.
 */
const SECRET_NAMES = new Set([
  'key', 'pwd', 'pass', 'passwd', 'pw', 'code', 'sig', 'auth', 'authorization', 'jwt', 'session', 'sessionid', 'otp', 'pin',
]);
const SECRET_PARTS = /token|passw|secret|signature|credential|api[-_]?key/;

export const REDACTED = '[REDACTED]';

function decoded(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' ')).toLowerCase();
  } catch {
    return name.toLowerCase();
  }
}

export function isSecretParameter(name: string): boolean {
  const plain = decoded(name).trim();
  return SECRET_NAMES.has(plain) || SECRET_PARTS.test(plain);
}

/**
 * The text with the values of secret query parameters replaced: every `name=value` that follows a `?` or `&` (a URL
 * alone, or URLs quoted in a message). The value ends at `&`, `#`, white space or a quote.
 */
export function redactQuerySecrets(text: string): string {
  if (!text.includes('=')) return text;
  return text.replace(/([?&])([^=&#?\s"'<>]+)=([^&#\s"'<>]*)/g, (whole, sep: string, name: string, value: string) =>
    value !== '' && isSecretParameter(name) ? `${sep}${name}=${REDACTED}` : whole,
  );
}

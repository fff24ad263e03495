import { boolean, integer, nonEmpty, type SettingsFeature } from './setting.js';

/** Users, sessions and logins (auth/, built by src/start/service.ts). */
export interface AuthSettings {
  adminUser: string;
  adminPassword: string | undefined;
  sessionIdleSeconds: number;
  sessionMaxSeconds: number;
  cookieSecure: boolean;
  loginMaxFailures: number;
  loginLockoutSeconds: number;
  passwordHashCost: number;
}

export const AUTH: SettingsFeature<AuthSettings> = {
  settings: {
    adminUser: { env: 'PDFSERVICE_ADMIN_USER', doc: 'Name of the admin created at the first start', default: 'admin', parse: nonEmpty },
    adminPassword: {
      env: 'PDFSERVICE_ADMIN_PASSWORD',
      doc: 'Password of that admin (used only when no user exists yet)',
      shown: 'generated',
      default: undefined,
      parse: nonEmpty,
    },
    sessionIdleSeconds: { env: 'PDFSERVICE_SESSION_IDLE_SECONDS', doc: 'A session unused this long expires', default: 30 * 60, parse: integer(1, 31 * 86400) },
    sessionMaxSeconds: { env: 'PDFSERVICE_SESSION_MAX_SECONDS', doc: 'A session expires this long after login, whatever its use', default: 12 * 3600, parse: integer(1, 366 * 86400) },
    cookieSecure: { env: 'PDFSERVICE_COOKIE_SECURE', doc: 'Mark the session cookie `Secure` always (set it when the service is reached over TLS). It is also `Secure` whenever a request came over TLS: directly, or through a trusted proxy saying `X-Forwarded-Proto: https`', default: false, parse: boolean },
    loginMaxFailures: { env: 'PDFSERVICE_LOGIN_MAX_FAILURES', doc: 'Failed logins for one user name from one client address before 429; one address may fail 5 times as often over all names (see docs/api.md)', default: 5, parse: integer(1, 1000) },
    loginLockoutSeconds: { env: 'PDFSERVICE_LOGIN_LOCKOUT_SECONDS', doc: 'How long that 429 lasts', default: 60, parse: integer(1, 86400) },
    passwordHashCost: {
      env: 'PDFSERVICE_PASSWORD_HASH_COST',
      doc: "scrypt's cost for new and changed passwords, as log2 of N (r 8, p 1): 15 is 32 MiB and about 0.1 s of CPU a hash, paid at each login and at the first Basic request of a minute. Each stored hash keeps the cost it was made with. Below 15 only for tests (the test suites use 10: a hash or a check then takes about 2 ms of CPU instead of about 100)",
      default: 15,
      parse: integer(10, 20),
    },
  },
};

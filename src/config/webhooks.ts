import { isIP } from 'node:net';
import { ConfigError, integer, type SettingsFeature } from './setting.js';

/** Webhooks: a job's end POSTed to a URL its request named (docs/webhooks.md). */
export interface WebhookSettings {
  webhookAllowlist: WebhookAllowEntry[];
  webhookAttempts: number;
  webhookBackoffMs: number;
  webhookTimeoutMs: number;
}

/** One entry of PDFSERVICE_WEBHOOK_ALLOWLIST: a host name pattern, or an IP network. */
export type WebhookAllowEntry = { host: string } | { network: string; prefix: number; family: 4 | 6 };

export const WEBHOOKS: SettingsFeature<WebhookSettings> = {
  settings: {
    webhookAllowlist: {
      env: 'PDFSERVICE_WEBHOOK_ALLOWLIST',
      doc: 'Where job webhooks may be sent (comma-separated): host names (`hooks.example.com`), `*.example.com` (any name under it), `*` (any name), IP addresses and networks (`203.0.113.7`, `10.0.0.0/8`, `::1`). A callback URL is taken when its host matches a name, or is an IP address in a listed network; every address its name resolves to must be public or in a listed network (a name alone never allows a loopback, private, link-local, unique-local, multicast or unspecified address). Empty: webhooks are off (400 `WEBHOOK_URL_REFUSED`; docs/webhooks.md)',
      shown: 'empty (off)',
      default: () => [],
      parse: allowList,
    },
    webhookAttempts: {
      env: 'PDFSERVICE_WEBHOOK_ATTEMPTS',
      doc: 'Attempts to deliver one webhook (the first included) before it is given up; an answer 2xx delivers it',
      default: 8,
      parse: integer(1, 20),
    },
    webhookBackoffMs: {
      env: 'PDFSERVICE_WEBHOOK_BACKOFF_MS',
      doc: 'Wait before the second attempt of a webhook; each later wait doubles, up to one hour (with the defaults the eighth attempt comes about 10.5 minutes after the first)',
      shown: '`5000` (5 s)',
      default: 5_000,
      parse: integer(100, 3_600_000),
    },
    webhookTimeoutMs: {
      env: 'PDFSERVICE_WEBHOOK_TIMEOUT_MS',
      doc: 'Longest one webhook attempt may take, connecting and answering; past it the attempt failed',
      shown: '`10000` (10 s)',
      default: 10_000,
      parse: integer(500, 120_000),
    },
  },
};

/** What webhooks may call and how hard they try, as operations/jobs/webhooks.ts takes it. */
export function webhookPolicy(config: WebhookSettings) {
  return { allowlist: config.webhookAllowlist, attempts: config.webhookAttempts, backoffMs: config.webhookBackoffMs, timeoutMs: config.webhookTimeoutMs };
}

/** PDFSERVICE_WEBHOOK_ALLOWLIST parsed: names lower-cased, networks checked. */
function allowList(raw: string): WebhookAllowEntry[] {
  return raw.split(',').map((item) => item.trim()).filter((item) => item !== '').map((item): WebhookAllowEntry => {
    const slash = item.indexOf('/');
    const address = slash < 0 ? item : item.slice(0, slash);
    const family = isIP(address);
    if (family !== 0) {
      const max = family === 4 ? 32 : 128;
      const text = slash < 0 ? String(max) : item.slice(slash + 1);
      if (!/^\d{1,3}$/.test(text) || Number(text) > max) throw new ConfigError(`has "${item}", whose prefix length is not 0 to ${max}`);
      return { network: address, prefix: Number(text), family: family === 4 ? 4 : 6 };
    }
    if (item === '*' || /^(\*\.)?([a-z0-9]([a-z0-9-]*[a-z0-9])?\.)*[a-z0-9]([a-z0-9-]*[a-z0-9])?$/i.test(item)) return { host: item.toLowerCase() };
    throw new ConfigError(`has "${item}", which is neither a host name (optionally *.name), "*", nor an IP address or network`);
  });
}

import { BlockList, isIP } from 'node:net';
import { ServiceError } from '../../errors.js';
import type { WebhookAllowEntry } from '../../config/webhooks.js';
import { bareHost, isForbiddenAddress, mappedIpv4, pinnedRequest, resolveHost, type ResolvedAddress } from '../../outbound.js';
import { webhookSignature } from '../../webhook-signing.js';
import type { JobRecord, JobWebhook, WebhookDelivery } from './model.js';

/**
 * Webhooks (docs/webhooks.md): a job's request names a URL (X-Service-Webhook-Url); when the job ends, the process
 * that recorded the end (the store's replaceIf lets one win, across instances) POSTs the job model there, signed
 * as Standard Webhooks asks (webhook-id, webhook-timestamp, webhook-signature `v1,<base64 HMAC-SHA256>` with the
 * owner's `whsec_` secret), retried with exponential backoff, each attempt recorded in the job's record. This class
 * makes one attempt (send); when attempts are due is the job backend's (JobBackend.scheduleWebhook: durable, and
 * taken by one process across instances), so a retry outlives the process that made the attempt before it.
 */

/** What the operator allows (config/webhooks.ts) and how hard delivery tries. */
export interface WebhookPolicy {
  allowlist: readonly WebhookAllowEntry[];
  /** Attempts in all, the first included. */
  attempts: number;
  /** Wait before the second attempt; each later one doubles (at most MAX_BACKOFF_MS). */
  backoffMs: number;
  /** Longest one attempt may take, connecting and answering. */
  timeoutMs: number;
}

/** The owners' signing secrets (auth/users.ts keeps them with the users). */
export interface WebhookSecrets {
  /** The user's secret, made when the user has none. */
  ensure(username: string): Promise<string>;
  /** The user's secret as it is now (rotated ones are gone), or undefined. */
  current(username: string): Promise<string | undefined>;
}

const MAX_URL_LENGTH = 2_048;
const MAX_BACKOFF_MS = 3_600_000;
function refused(detail: string): ServiceError {
  return new ServiceError('WEBHOOK_URL_REFUSED', detail);
}

/** What the allow-list lets through: host name patterns, and networks (a listed network also allows its non-public addresses). */
class AllowList {
  private readonly hosts: string[] = [];
  private readonly networks = new BlockList();
  private hasNetworks = false;

  constructor(entries: readonly WebhookAllowEntry[]) {
    for (const entry of entries) {
      if ('host' in entry) this.hosts.push(entry.host);
      else {
        this.networks.addSubnet(entry.network, entry.prefix, entry.family === 4 ? 'ipv4' : 'ipv6');
        this.hasNetworks = true;
      }
    }
  }

  get empty(): boolean {
    return this.hosts.length === 0 && !this.hasNetworks;
  }

  /** Whether a host name (not an address) matches a listed name, `*.name` (a name under it) or `*`. */
  name(host: string): boolean {
    return this.hosts.some((pattern) => pattern === '*' || pattern === host || (pattern.startsWith('*.') && host.endsWith(pattern.slice(1))));
  }

  /** Whether an address lies in a listed network (an IPv4-mapped IPv6 address as the IPv4 address it carries). */
  address(address: string): boolean {
    if (!this.hasNetworks) return false;
    const v4 = isIP(address) === 6 ? mappedIpv4(address) : undefined;
    if (v4 !== undefined) return this.networks.check(v4, 'ipv4');
    return this.networks.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');
  }
}

/** A webhook's address checked: the URL, and the one resolved address it is sent to. */
interface Target {
  url: URL;
  address: ResolvedAddress;
}

/**
 * Checks and delivers webhooks. `view` renders a record as clients see the job (the route's job model), so the body
 * is the model GET /jobs/{id} answers.
 */
export class Webhooks {
  private readonly allow: AllowList;
  /** Stops the deliveries' waits and attempts when the service closes. */
  private readonly closing = new AbortController();

  constructor(
    private readonly policy: WebhookPolicy,
    private readonly secrets: WebhookSecrets | undefined,
    private readonly view: (record: JobRecord) => unknown,
  ) {
    this.allow = new AllowList(policy.allowlist);
  }

  /**
   * The webhook of a job about to be created, checked (400 WEBHOOK_URL_REFUSED otherwise: no job is created) and
   * its owner's secret made if the owner has none.
   */
  async accept(url: string, owner: string | null): Promise<JobWebhook> {
    await this.target(url);
    if (owner === null || !this.secrets) throw refused('A webhook is signed with its owner\'s secret: it needs a signed-in user');
    await this.secrets.ensure(owner);
    return { url, state: 'pending', deliveries: [] };
  }

  /**
   * Attempt number `attempt` of an ended job's webhook: what its delivery log records, the webhook's state after it,
   * and, while it stays pending, how long to wait before the next one. Undefined when the service closed during the
   * attempt: nothing is recorded, and the attempt is made again (the job backend's schedule is durable). Never throws.
   */
  async send(record: JobRecord, attempt: number): Promise<{ delivery: WebhookDelivery; state: JobWebhook['state']; retryInMs?: number } | undefined> {
    if (!record.webhook || this.closing.signal.aborted) return undefined;
    // The body is the job as it ended, the same for every attempt (an ended record changes no more); its delivery log is not part of it.
    const { webhook, ...ended } = record;
    const body = JSON.stringify(this.view(ended));
    const at = new Date();
    const outcome = await this.attempt(record, webhook, body, at).catch((err: unknown): Awaited<ReturnType<Webhooks['attempt']>> => ({ error: `The attempt failed (${(err as Error).message})` }));
    if (this.closing.signal.aborted) return undefined;
    const delivered = outcome.status !== undefined && outcome.status >= 200 && outcome.status < 300;
    const last = delivered || outcome.final === true || attempt >= this.policy.attempts;
    const delivery: WebhookDelivery = { attempt, at: at.toISOString(), ...(outcome.status !== undefined ? { status: outcome.status } : {}), ...(outcome.error !== undefined ? { error: outcome.error } : {}) };
    return { delivery, state: delivered ? 'delivered' : last ? 'failed' : 'pending', ...(last ? {} : { retryInMs: this.retryDelay(attempt) }) };
  }

  /**
   * How long from `now` until the next attempt of a pending webhook is due, from its delivery log alone (a restarted
   * process resumes its predecessor's webhooks so): at once before the first, else the last attempt's time and its backoff.
   */
  dueIn(hook: JobWebhook, now = Date.now()): number {
    const last = hook.deliveries.at(-1);
    if (!last) return 0;
    return Math.max(0, Date.parse(last.at) + this.retryDelay(last.attempt) - now);
  }

  /** Stops the attempts under way (unrecorded: they are made again) and refuses new ones. */
  close(): void {
    this.closing.abort();
  }

  /** The wait after attempt `attempt` failed: PDFSERVICE_WEBHOOK_BACKOFF_MS, doubling each time, at most an hour. */
  private retryDelay(attempt: number): number {
    return Math.min(MAX_BACKOFF_MS, this.policy.backoffMs * 2 ** (attempt - 1));
  }

  /** One attempt: the URL checked again (the list, or what the name resolves to, may have changed), signed now, sent to the checked address. */
  private async attempt(record: JobRecord, hook: JobWebhook, body: string, at: Date): Promise<{ status?: number; error?: string; final?: boolean }> {
    const secret = record.owner === null ? undefined : await this.secrets?.current(record.owner);
    if (secret === undefined) return { error: 'The job\'s owner has no webhook secret any more (the user was removed)', final: true };
    let target: Target;
    try {
      target = await this.target(hook.url);
    } catch (err) {
      return { error: (err as ServiceError).detail ?? (err as Error).message };
    }
    const timestamp = Math.floor(at.getTime() / 1000);
    const headers = {
      'Content-Type': 'application/json',
      'User-Agent': 'pdfservice (webhook)',
      'webhook-id': record.id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': webhookSignature(secret, record.id, timestamp, body),
      ...propagationHeaders(record),
    };
    const timeout = AbortSignal.timeout(this.policy.timeoutMs);
    try {
      const response = await pinnedRequest(target.url, target.address, { method: 'POST', headers, body, signal: AbortSignal.any([timeout, this.closing.signal]) });
      // The answer's body is not read: its status says all. A redirect is never followed (docs/webhooks.md).
      response.destroy();
      return { status: response.statusCode ?? 0 };
    } catch (err) {
      if (timeout.aborted) return { error: `No answer within ${this.policy.timeoutMs} ms (PDFSERVICE_WEBHOOK_TIMEOUT_MS)` };
      return { error: `The request failed (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})` };
    }
  }

  /**
   * The URL allowed and resolved: an http(s) URL without credentials whose host matches the allow-list (a name by
   * its patterns, an address by its networks), every address of which is public or in a listed network.
   */
  private async target(raw: string): Promise<Target> {
    if (this.allow.empty) throw refused('Webhooks are off: the operator has not set PDFSERVICE_WEBHOOK_ALLOWLIST (docs/webhooks.md)');
    if (raw.length > MAX_URL_LENGTH) throw refused(`The webhook URL is longer than ${MAX_URL_LENGTH} characters`);
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw refused('The webhook URL is not an absolute URL');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw refused(`A webhook URL is http or https, not ${url.protocol}`);
    if (url.username !== '' || url.password !== '') throw refused('The webhook URL carries credentials: webhooks are signed instead');
    const host = bareHost(url.hostname).toLowerCase();
    const listed = isIP(host) !== 0 ? this.allow.address(host) : this.allow.name(host);
    if (!listed) throw refused(`${host} is not on the service's webhook allow-list (PDFSERVICE_WEBHOOK_ALLOWLIST)`);
    let addresses: ResolvedAddress[];
    try {
      addresses = await resolveHost(host);
    } catch (err) {
      throw refused(`The name ${host} could not be resolved (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
    }
    // Every address of the name is checked, not only the one used: a name with one non-public address unlisted is refused whole.
    const bad = addresses.find(({ address }) => isForbiddenAddress(address) && !this.allow.address(address));
    if (bad || addresses.length === 0) {
      throw refused(`${host} resolves to ${bad?.address ?? 'no address'}, a loopback, private, link-local, unique-local, multicast or unspecified address the allow-list does not name`);
    }
    return { url, address: addresses[0]! };
  }
}

/**
 * Headers that carry the job's trace to the receiver: the job's one recorded W3C traceparent (payload.traceparent: the
 * request's span with tracing on, docs/observability.md; the client's own traceparent otherwise).
 */
function propagationHeaders(record: JobRecord): Record<string, string> {
  return record.payload.traceparent !== undefined ? { traceparent: record.payload.traceparent } : {};
}

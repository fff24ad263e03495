import type { IncomingMessage } from 'node:http';
import { lookup } from 'node:dns/promises';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/**
 * Requests the service itself makes to URLs users name (web pages by URL, docs/html.md; webhooks, docs/webhooks.md):
 * which addresses are never connected to unless the operator lists them, how a name is resolved, and one request
 * sent to the address that was checked (the connection's lookup answers it: no second resolution, so DNS rebinding
 * cannot switch the address between the check and the connect). Redirects are never followed here: a caller that
 * follows them checks each hop again.
 */

/**
 * Addresses never connected to: unspecified, loopback, private (RFC 1918), shared (CGNAT), link-local (cloud
 * metadata at 169.254.169.254), documentation and benchmark ranges, multicast and reserved; in IPv6 the unspecified
 * and loopback addresses, IPv4-compatible, NAT64 and 6to4 addresses (they embed an IPv4 address), unique-local,
 * link-local, site-local, documentation, discard-only and multicast. IPv4-mapped IPv6 addresses are checked as the
 * IPv4 address they carry.
 */
const FORBIDDEN = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24],
  ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) FORBIDDEN.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 96], ['64:ff9b::', 96], ['64:ff9b:1::', 48], ['100::', 64], ['2001:db8::', 32], ['2002::', 16], ['fc00::', 7],
  ['fe80::', 10], ['fec0::', 10], ['ff00::', 8],
] as const) FORBIDDEN.addSubnet(network, prefix, 'ipv6');

/** The IPv4 address an IPv4-mapped IPv6 address (`::ffff:a.b.c.d`, in any spelling) carries. */
export function mappedIpv4(address: string): string | undefined {
  // The URL parser writes an IPv6 address in its one canonical form: ::ffff:7f00:1 for ::ffff:127.0.0.1.
  const canonical = new URL(`http://[${address}]/`).hostname.slice(1, -1);
  const match = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(canonical);
  if (!match) return undefined;
  const high = parseInt(match[1]!, 16);
  const low = parseInt(match[2]!, 16);
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}

/** Whether the service refuses to connect to `address` (an IP address; anything else is refused). */
export function isForbiddenAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  if (family === 6) {
    const v4 = mappedIpv4(address);
    if (v4 !== undefined) return isForbiddenAddress(v4);
    return FORBIDDEN.check(address, 'ipv6');
  }
  return FORBIDDEN.check(address, 'ipv4');
}

export function isLoopback(address: string): boolean {
  const v4 = isIP(address) === 6 ? (mappedIpv4(address) ?? address) : address;
  return v4 === '::1' || (isIP(v4) === 4 && v4.startsWith('127.'));
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** A URL's host name without the brackets of an IPv6 literal. */
export function bareHost(host: string): string {
  return host.startsWith('[') ? host.slice(1, -1) : host;
}

/** Every address of a host (an IP literal is its own); rejects with the resolver's error (its `code`) when it has none. */
export async function resolveHost(host: string): Promise<ResolvedAddress[]> {
  const name = bareHost(host);
  const literal = isIP(name);
  if (literal !== 0) return [{ address: name, family: literal === 6 ? 6 : 4 }];
  const found = await lookup(name, { all: true, verbatim: true });
  return found.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));
}

/**
 * One request to `url` sent to the checked address `pinned`: the name stays the request's (Host, TLS server name and
 * certificate check); resolves with the response (its body unread), never following a redirect.
 */
export function pinnedRequest(url: URL, pinned: ResolvedAddress, options: { method: string; headers: Record<string, string>; signal: AbortSignal; body?: string | Uint8Array }): Promise<IncomingMessage> {
  // The connection's lookup answers the checked address: Node asks no resolver again.
  const lookupPinned = ((_host: string, lookupOptions: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (lookupOptions.all) callback(null, [{ address: pinned.address, family: pinned.family }]);
    else callback(null, pinned.address, pinned.family);
  }) as unknown as LookupFunction;
  // Taken when a request is sent, not imported: Node's ES module of node:http reads every export, its lazy WebSocket
  // among them, which loads Node's bundled undici (about 0.1 s of CPU at every start; docs/testing.md), and node:https
  // loads TLS.
  const client = process.getBuiltinModule(url.protocol === 'https:' ? 'node:https' : 'node:http');
  return new Promise((resolve, reject) => {
    const request = client.request(url, { method: options.method, agent: false, lookup: lookupPinned, signal: options.signal, headers: options.headers });
    request.once('response', resolve);
    request.once('error', reject);
    request.end(options.body);
  });
}

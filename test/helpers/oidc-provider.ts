import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { exportJWK, generateKeyPair } from 'jose';
import { exited, freePort, waitForExit } from './processes.js';

/**
 * A real OpenID Connect provider for the tests: panva's oidc-provider (npm, OpenID Certified) run by
 * test/oidc/provider.mjs in a process of its own on a free loopback port (docs/oidc.md "The test provider"). It issues
 * JWT access tokens (RFC 9068) to OAuth2 clients by the client_credentials grant; the audience is asked for with a
 * resource indicator (RFC 8707). Clients and keys live in a configuration file this helper writes; a change is applied
 * by SIGHUP, on the same port, so the issuer stays the same.
 */

const PROVIDER_SCRIPT = fileURLToPath(new URL('../../../test/oidc/provider.mjs', import.meta.url));

type Jwk = Record<string, unknown> & { kid: string };

export interface ProviderClient {
  clientId: string;
  clientSecret: string;
}

export interface OidcProvider {
  /** The issuer exactly as its discovery document and tokens name it. */
  issuer: string;
  /** An OAuth2 client allowed the client_credentials grant, the given scopes and audiences. */
  createClient(scopes: string[], audiences: string[]): Promise<ProviderClient>;
  /**
   * A client of the authorization-code flow (PKCE) sending people back to `redirectUri`: the service's console sign-in.
   * A person signs in at the provider's pages with any name and password; the name becomes the tokens' `sub`.
   */
  createSignInClient(scopes: string[], audiences: string[], redirectUri: string): Promise<ProviderClient>;
  /** An access token (a JWT) for the client, with these scopes and audience. */
  token(client: ProviderClient, scopes: string[], audience: string): Promise<string>;
  /** Key rotation: a new signing key, first in the JWKS and signing new tokens, the old ones still published; answers its kid. */
  rotateAccessTokenKey(): Promise<string>;
  /** Adds a JWK (with its private part) to the provider's keys, which the JWKS then publishes; it signs no token of the provider. */
  putTestKey(jwk: Jwk): Promise<void>;
  /** The public JWKS as a relying party sees it. */
  jwks(): Promise<{ keys: Jwk[] }>;
  stop(): Promise<void>;
  output(): string;
}

/** The resource indicator under which the provider knows the resource server of an audience. */
export const resourceOf = (audience: string) => `urn:pdfservice-test:${audience}`;

async function ok(response: Response, what: string): Promise<Response> {
  if (!response.ok) throw new Error(`OpenID Connect provider: ${what} answered ${response.status}: ${await response.text()}`);
  return response;
}

async function signingKey(kid: string): Promise<Jwk> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  return { ...(await exportJWK(privateKey)), kid, alg: 'RS256', use: 'sig' };
}

export async function startOidcProvider(): Promise<OidcProvider> {
  const port = await freePort();
  const dir = mkdtempSync(path.join(tmpdir(), 'pdfservice-oidc-'));
  const configFile = path.join(dir, 'provider.json');
  const keys: Jwk[] = [await signingKey(`key-${randomBytes(6).toString('hex')}`)];
  const clients: Array<{ client_id: string; client_secret: string; scope: string; audiences: string[]; redirect_uris?: string[] }> = [];
  const writeConfig = () => {
    // Each audience a client names is a resource server offering every scope a client holds.
    const scope = [...new Set(clients.flatMap((c) => c.scope.split(' ')))].join(' ') || 'openid';
    const resources = Object.fromEntries([...new Set(clients.flatMap((c) => c.audiences))].map((audience) => [resourceOf(audience), { audience, scope }]));
    writeFileSync(configFile, JSON.stringify({ port, keys, clients, resources }), { mode: 0o600 });
  };
  writeConfig();

  const lines: string[] = [];
  let waiting: { pattern: RegExp; resolve: (line: string) => void } | undefined;
  const child: ChildProcess = spawn(process.execPath, [PROVIDER_SCRIPT, configFile], { stdio: ['ignore', 'pipe', 'pipe'] });
  let pending = '';
  child.stdout!.on('data', (d: Buffer) => {
    lines.push(d.toString());
    pending += d.toString();
    let newline;
    while ((newline = pending.indexOf('\n')) >= 0) {
      const line = pending.slice(0, newline);
      pending = pending.slice(newline + 1);
      if (waiting?.pattern.test(line)) {
        waiting.resolve(line);
        waiting = undefined;
      }
    }
  });
  child.stderr!.on('data', (d: Buffer) => lines.push(d.toString()));
  /** The next line of the provider's output matching `pattern` (within a minute on a loaded machine). */
  const nextLine = (pattern: RegExp) => new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`OpenID Connect provider: no ${pattern} within a minute: ${lines.join('')}`)), 60_000);
    const onExit = () => reject(new Error(`OpenID Connect provider exited: ${lines.join('')}`));
    child.once('exit', onExit);
    waiting = {
      pattern,
      resolve: (line) => {
        clearTimeout(timer);
        child.off('exit', onExit);
        resolve(line);
      },
    };
  });
  const stop = async () => {
    if (!exited(child)) {
      child.kill('SIGTERM');
      if (!(await waitForExit(child, 5000))) child.kill('SIGKILL');
      await waitForExit(child, 5000);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const reload = async () => {
    writeConfig();
    const done = nextLine(/^(reloaded|reload failed)/);
    child.kill('SIGHUP');
    const line = await done;
    if (line !== 'reloaded') throw new Error(`OpenID Connect provider: ${line}`);
  };

  let discovery: { issuer: string; token_endpoint: string; jwks_uri: string };
  try {
    const listening = await nextLine(/^listening /);
    const url = listening.slice('listening '.length);
    discovery = (await (await ok(await fetch(`${url}/.well-known/openid-configuration`), 'discovery')).json()) as typeof discovery;
  } catch (error) {
    await stop();
    throw error;
  }

  return {
    issuer: discovery.issuer,
    async createClient(scopes, audiences) {
      const client = { client_id: `client-${randomBytes(6).toString('hex')}`, client_secret: randomBytes(24).toString('base64url'), scope: scopes.join(' '), audiences };
      clients.push(client);
      await reload();
      return { clientId: client.client_id, clientSecret: client.client_secret };
    },
    async createSignInClient(scopes, audiences, redirectUri) {
      const client = { client_id: `console-${randomBytes(6).toString('hex')}`, client_secret: randomBytes(24).toString('base64url'), scope: scopes.join(' '), audiences, redirect_uris: [redirectUri] };
      clients.push(client);
      await reload();
      return { clientId: client.client_id, clientSecret: client.client_secret };
    },
    async token(client, scopes, audience) {
      const response = await ok(await fetch(discovery.token_endpoint, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from(`${encodeURIComponent(client.clientId)}:${encodeURIComponent(client.clientSecret)}`).toString('base64')}`,
        },
        body: new URLSearchParams({ grant_type: 'client_credentials', scope: scopes.join(' '), resource: resourceOf(audience) }).toString(),
      }), 'the token request');
      return ((await response.json()) as { access_token: string }).access_token;
    },
    async rotateAccessTokenKey() {
      const key = await signingKey(`rotated-${randomBytes(6).toString('hex')}`);
      keys.unshift(key);
      await reload();
      return key.kid;
    },
    async putTestKey(jwk) {
      keys.push(jwk);
      await reload();
    },
    async jwks() {
      return (await (await ok(await fetch(discovery.jwks_uri), 'the JWKS')).json()) as { keys: Jwk[] };
    },
    stop,
    output: () => lines.join(''),
  };
}

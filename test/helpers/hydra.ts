import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { exited, freePorts, waitForExit } from './processes.js';

/**
 * A real OpenID Connect provider for the tests: Ory Hydra v2.3.0, built from the Go module proxy by
 * `bash scripts/setup.sh test` into .tools/hydra/hydra (test/oidc/go.mod pins it; docs/oidc.md "The test provider").
 * It runs in memory (`DSN=memory`) on free loopback ports and issues JWT access tokens
 * (`strategies.access_token=jwt`) to OAuth2 clients by the client_credentials grant.
 */

export const HYDRA_BINARY = process.env.PDFSERVICE_TEST_HYDRA ?? fileURLToPath(new URL('../../../.tools/hydra/hydra', import.meta.url));

/** A key set Hydra publishes in its JWKS besides its own, which tests fill with keys they hold the private half of. */
export const TEST_KEY_SET = 'pdfservice-test';

export interface HydraClient {
  clientId: string;
  clientSecret: string;
}

export interface Hydra {
  /** The issuer exactly as its discovery document and tokens name it. */
  issuer: string;
  publicUrl: string;
  adminUrl: string;
  /** An OAuth2 client allowed the client_credentials grant, the given scopes and audiences. */
  createClient(scopes: string[], audiences: string[]): Promise<HydraClient>;
  /** An access token (a JWT) for the client, with these scopes and audience. */
  token(client: HydraClient, scopes: string[], audience: string): Promise<string>;
  /** A new signing key for access tokens (Hydra signs with the newest): key rotation; answers its kid. */
  rotateAccessTokenKey(): Promise<string>;
  /** Stores a JWK (with its private part) in TEST_KEY_SET, which the JWKS then publishes. */
  putTestKey(jwk: Record<string, unknown> & { kid: string }): Promise<void>;
  /** The public JWKS as a relying party sees it. */
  jwks(): Promise<{ keys: Array<Record<string, unknown> & { kid: string }> }>;
  stop(): Promise<void>;
  output(): string;
}

async function ok(response: Response, what: string): Promise<Response> {
  if (!response.ok) throw new Error(`Hydra: ${what} answered ${response.status}: ${await response.text()}`);
  return response;
}

export async function startHydra(): Promise<Hydra> {
  if (!existsSync(HYDRA_BINARY)) throw new Error(`${HYDRA_BINARY} is missing: bash scripts/setup.sh test builds it (docs/oidc.md "The test provider")`);
  const [publicPort, adminPort] = await freePorts(2);
  const publicUrl = `http://127.0.0.1:${publicPort}`;
  const adminUrl = `http://127.0.0.1:${adminPort}`;
  const lines: string[] = [];
  const child: ChildProcess = spawn(HYDRA_BINARY, ['serve', 'all', '--dev', '--sqa-opt-out'], {
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      DSN: 'memory',
      SECRETS_SYSTEM: randomBytes(24).toString('hex'),
      URLS_SELF_ISSUER: `${publicUrl}/`,
      SERVE_PUBLIC_HOST: '127.0.0.1',
      SERVE_PUBLIC_PORT: String(publicPort),
      SERVE_ADMIN_HOST: '127.0.0.1',
      SERVE_ADMIN_PORT: String(adminPort),
      STRATEGIES_ACCESS_TOKEN: 'jwt',
      WEBFINGER_JWKS_BROADCAST_KEYS: `hydra.jwt.access-token,${TEST_KEY_SET}`,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d: Buffer) => lines.push(d.toString()));
  child.stderr!.on('data', (d: Buffer) => lines.push(d.toString()));
  const stop = async () => {
    if (exited(child)) return;
    child.kill('SIGTERM');
    if (!(await waitForExit(child, 5000))) child.kill('SIGKILL');
    await waitForExit(child, 5000);
  };
  // Ready when the admin API says so (migrations of the in-memory database done), within a minute on a loaded machine.
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (exited(child)) throw new Error(`Hydra exited at start: ${lines.join('')}`);
    const ready = await fetch(`${adminUrl}/health/ready`).then((r) => r.ok, () => false);
    if (ready) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`Hydra did not become ready: ${lines.join('')}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  const discovery = (await (await ok(await fetch(`${publicUrl}/.well-known/openid-configuration`), 'discovery')).json()) as { issuer: string };

  return {
    issuer: discovery.issuer,
    publicUrl,
    adminUrl,
    async createClient(scopes, audiences) {
      const response = await ok(await fetch(`${adminUrl}/admin/clients`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ grant_types: ['client_credentials'], scope: scopes.join(' '), audience: audiences, token_endpoint_auth_method: 'client_secret_basic' }),
      }), 'creating a client');
      const created = (await response.json()) as { client_id: string; client_secret: string };
      return { clientId: created.client_id, clientSecret: created.client_secret };
    },
    async token(client, scopes, audience) {
      const response = await ok(await fetch(`${publicUrl}/oauth2/token`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from(`${encodeURIComponent(client.clientId)}:${encodeURIComponent(client.clientSecret)}`).toString('base64')}`,
        },
        body: new URLSearchParams({ grant_type: 'client_credentials', scope: scopes.join(' '), audience }).toString(),
      }), 'the token request');
      return ((await response.json()) as { access_token: string }).access_token;
    },
    async rotateAccessTokenKey() {
      const kid = `rotated-${randomBytes(6).toString('hex')}`;
      await ok(await fetch(`${adminUrl}/admin/keys/hydra.jwt.access-token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ alg: 'RS256', use: 'sig', kid }),
      }), 'creating a key');
      return kid;
    },
    async putTestKey(jwk) {
      await ok(await fetch(`${adminUrl}/admin/keys/${TEST_KEY_SET}/${encodeURIComponent(jwk.kid)}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(jwk),
      }), 'storing a key');
    },
    async jwks() {
      return (await (await ok(await fetch(`${publicUrl}/.well-known/jwks.json`), 'the JWKS')).json()) as { keys: Array<Record<string, unknown> & { kid: string }> };
    },
    stop,
    output: () => lines.join(''),
  };
}

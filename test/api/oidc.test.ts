import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { decodeJwt, decodeProtectedHeader, exportJWK, exportSPKI, generateKeyPair, SignJWT, type JWTPayload } from 'jose';
import { OidcVerifier } from '../../src/auth/oidc.js';
import { loadConfig } from '../../src/config.js';
import { call, sha256, storedBytes, type Reply } from '../helpers/http.js';
import { startOidcProvider, type OidcProvider, type ProviderClient } from '../helpers/oidc-provider.js';
import { makePdf, pdftotext, qpdfCheck } from '../helpers/pdf.js';
import { ADMIN, basicAuth, startServer, type TestServer } from '../helpers/server.js';

/**
 * OpenID Connect bearer tokens (docs/oidc.md) against a real provider: panva's oidc-provider in a process of its own
 * (test/oidc/provider.mjs), issuing JWT access tokens by the client_credentials grant. Rights come from the `scope`
 * claim (space-separated): pdf.read reads, pdf.write also writes.
 */

const AUDIENCE = 'pdfservice';
const RIGHTS = 'pdf.read=GET;pdf.write=GET,POST,PUT';
const bearer = (token: string) => `Bearer ${token}`;

function assertRefused(reply: Reply, code: string, detail: RegExp): void {
  assert.equal(reply.status, 401, reply.text);
  assert.match(reply.headers.get('content-type') ?? '', /^application\/problem\+json/);
  const problem = reply.json();
  assert.equal(problem.code, code, reply.text);
  assert.match(problem.detail, detail);
  assert.match(reply.headers.get('www-authenticate') ?? '', /^Bearer realm="pdfservice", error="invalid_token"/);
}

const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('OpenID Connect bearer tokens from a real provider (oidc-provider)', () => {
  let provider: OidcProvider;
  let server: TestServer;
  let reader: ProviderClient;
  let writer: ProviderClient;
  const pdf = makePdf({ text: () => 'shared with the identity provider' });

  before(async () => {
    provider = await startOidcProvider();
    server = await startServer({
      env: {
        PDFSERVICE_OIDC_ISSUER: provider.issuer,
        PDFSERVICE_OIDC_AUDIENCE: AUDIENCE,
        PDFSERVICE_OIDC_RIGHTS_CLAIM: 'scope',
        PDFSERVICE_OIDC_RIGHTS: RIGHTS,
        // Every unknown kid fetches the key set again, so the rotation and outage below need no waiting.
        PDFSERVICE_OIDC_JWKS_COOLDOWN_SECONDS: '0',
      },
    });
    reader = await provider.createClient(['pdf.read'], [AUDIENCE]);
    writer = await provider.createClient(['pdf.read', 'pdf.write'], [AUDIENCE, 'another-service']);
    assert.equal((await call(server, 'PUT', '/documents/oidc/shared.pdf', { body: pdf, headers: { 'content-type': 'application/pdf' } })).status, 201);
  });
  after(async () => {
    await server?.stop();
    await provider?.stop();
  });

  test('a token from the provider reads and writes with the mapped rights, and is refused where they do not reach', async () => {
    const readToken = await provider.token(reader, ['pdf.read'], AUDIENCE);
    assert.equal(decodeJwt(readToken).iss, provider.issuer, 'the provider issues JWT access tokens');
    const me = await call(server, 'GET', '/sessions/current', { auth: bearer(readToken) });
    assert.deepEqual(me.json(), { username: reader.clientId, rights: ['GET'], via: 'oidc' });

    const read = await call(server, 'GET', '/documents/oidc/shared.pdf', { auth: bearer(readToken), headers: { accept: 'application/pdf' } });
    assert.equal(read.status, 200, read.text);
    assert.ok(read.bytes.equals(pdf));
    assert.match(pdftotext(read.bytes), /shared with the identity provider/);

    // Reading is all pdf.read gives: a write is 403 naming the right, and the document stays as it was.
    const other = makePdf({ text: () => 'overwritten' });
    const put = await call(server, 'PUT', '/documents/oidc/shared.pdf', { auth: bearer(readToken), body: other, headers: { 'content-type': 'application/pdf' } });
    assert.equal(put.status, 403, put.text);
    assert.equal(put.json().code, 'FORBIDDEN');
    assert.match(put.json().detail, /needs the PUT right, which the OpenID Connect user .* does not have/);
    assert.equal((await call(server, 'DELETE', '/documents/oidc/shared.pdf', { auth: bearer(readToken) })).status, 403);
    assert.equal(sha256(await storedBytes(server, 'oidc/shared.pdf')), sha256(pdf));

    // pdf.write adds POST and PUT: an upload lands byte for byte; DELETE and admin stay out of reach.
    const writeToken = await provider.token(writer, ['pdf.read', 'pdf.write'], AUDIENCE);
    const written = makePdf({ pages: 2, text: (n) => `written through OpenID Connect, page ${n + 1}` });
    const upload = await call(server, 'PUT', '/documents/oidc/written.pdf', { auth: bearer(writeToken), body: written, headers: { 'content-type': 'application/pdf' } });
    assert.equal(upload.status, 201, upload.text);
    const stored = await storedBytes(server, 'oidc/written.pdf');
    assert.ok(stored.equals(written));
    assert.ok(qpdfCheck(stored).ok);
    assert.match(pdftotext(stored), /written through OpenID Connect, page 2/);
    assert.equal((await call(server, 'DELETE', '/documents/oidc/written.pdf', { auth: bearer(writeToken) })).status, 403);
    assert.equal((await call(server, 'GET', '/users', { auth: bearer(writeToken) })).status, 403);
    // The issuer, not an API token of ours, decides how long an OpenID Connect user may act.
    const minted = await call(server, 'POST', '/tokens', { auth: bearer(writeToken), body: { name: 'escape hatch' } });
    assert.equal(minted.status, 403, minted.text);

    // A token of the same client for another audience is not for this service.
    assertRefused(await call(server, 'GET', '/documents/oidc/shared.pdf', { auth: bearer(await provider.token(writer, ['pdf.read'], 'another-service')) }), 'OIDC_TOKEN_INVALID', /aud/);
  });

  test('forged, expired, not-yet-valid, wrong-audience, wrong-issuer, alg none, HS256 and tampered tokens are 401', async () => {
    // A key of our own that the provider publishes in its JWKS: tokens signed with it are genuine as far as the keys go, so
    // each refusal below is the claim's doing. The first one, with every claim right, is accepted.
    const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
    const kid = 'pdfservice-test-signer';
    await provider.putTestKey({ ...(await exportJWK(privateKey)), kid, alg: 'RS256', use: 'sig' });
    assert.ok((await provider.jwks()).keys.some((k) => k.kid === kid && k.d === undefined), 'the JWKS publishes the public half');
    const now = Math.floor(Date.now() / 1000);
    const good: JWTPayload = { iss: provider.issuer, aud: [AUDIENCE], sub: 'signed-by-test-key', scope: 'pdf.read pdf.write', iat: now, nbf: now, exp: now + 600 };
    const sign = (claims: JWTPayload, key: CryptoKey | Uint8Array = privateKey, header: { alg: string; kid?: string } = { alg: 'RS256', kid }) =>
      new SignJWT(claims).setProtectedHeader({ typ: 'JWT', ...header }).sign(key);
    const accepted = await call(server, 'GET', '/sessions/current', { auth: bearer(await sign(good)) });
    assert.equal(accepted.status, 200, accepted.text);
    assert.deepEqual(accepted.json().rights, ['GET', 'POST', 'PUT']);

    const real = await provider.token(writer, ['pdf.read'], AUDIENCE);
    const realKid = decodeProtectedHeader(real).kid!;
    const stranger = await generateKeyPair('RS256');
    const publicPem = await exportSPKI(publicKey);
    const [head, , signature] = real.split('.');
    const cases: Array<[string, string, string, RegExp]> = [
      ['expired', await sign({ ...good, iat: now - 7200, nbf: now - 7200, exp: now - 3600 }), 'OIDC_TOKEN_EXPIRED', /expired/],
      ['not yet valid', await sign({ ...good, nbf: now + 3600 }), 'OIDC_TOKEN_INVALID', /not valid yet/],
      ['wrong audience', await sign({ ...good, aud: ['another-service'] }), 'OIDC_TOKEN_INVALID', /aud/],
      ['wrong issuer', await sign({ ...good, iss: 'http://127.0.0.1:9/' }), 'OIDC_TOKEN_INVALID', /iss/],
      ['no expiry', await sign({ ...good, exp: undefined }), 'OIDC_TOKEN_INVALID', /exp/],
      ['forged: a key of its own under the real kid', await sign(decodeJwt(real), stranger.privateKey, { alg: 'RS256', kid: realKid }), 'OIDC_TOKEN_INVALID', /signature/],
      ['forged: a kid the issuer does not have', await sign(good, stranger.privateKey, { alg: 'RS256', kid: 'made-up' }), 'OIDC_TOKEN_INVALID', /No key/],
      ['tampered: more scopes, the signature kept', `${head}.${base64url({ ...decodeJwt(real), scope: 'pdf.read pdf.write' })}.${signature}`, 'OIDC_TOKEN_INVALID', /signature/],
      ['alg none', `${base64url({ alg: 'none', typ: 'JWT', kid })}.${base64url(good)}.`, 'OIDC_TOKEN_INVALID', /asymmetric/],
      ['HS256 keyed with the public key (PEM)', await sign(good, new TextEncoder().encode(publicPem), { alg: 'HS256', kid }), 'OIDC_TOKEN_INVALID', /asymmetric/],
      ['HS256 keyed with the public JWK', await sign(good, new TextEncoder().encode(JSON.stringify(await exportJWK(publicKey))), { alg: 'HS256', kid }), 'OIDC_TOKEN_INVALID', /asymmetric/],
      ['a service user\'s name', await sign({ ...good, sub: ADMIN.username }), 'OIDC_TOKEN_INVALID', /service user's name/],
      ['not a JWT', 'eyJhbGciOiJSUzI1NiJ9.not-json.c2ln', 'OIDC_TOKEN_INVALID', /not a valid signed JWT/],
    ];
    for (const [what, token, code, detail] of cases) {
      const read = await call(server, 'GET', '/documents/oidc/shared.pdf', { auth: bearer(token) });
      assertRefused(read, code, detail);
      const write = await call(server, 'PUT', '/documents/oidc/shared.pdf', { auth: bearer(token), body: makePdf(), headers: { 'content-type': 'application/pdf' } });
      assert.equal(write.status, 401, `${what}: ${write.text}`);
    }
    assert.equal(sha256(await storedBytes(server, 'oidc/shared.pdf')), sha256(pdf), 'no refused token changed the document');
    // The refusals are the token's, not the provider's: a real token still works.
    assert.equal((await call(server, 'GET', '/documents/oidc/shared.pdf', { auth: bearer(real), headers: { accept: 'application/pdf' } })).status, 200);
  });

  test('after a key rotation, tokens signed with the new key are accepted, and those of the old key still are', async () => {
    const before = await provider.token(reader, ['pdf.read'], AUDIENCE);
    assert.equal((await call(server, 'GET', '/documents/oidc/shared.pdf', { auth: bearer(before) })).status, 200);
    const kid = await provider.rotateAccessTokenKey();
    const after = await provider.token(reader, ['pdf.read'], AUDIENCE);
    assert.equal(decodeProtectedHeader(after).kid, kid, 'the provider signs with the new key');
    assert.notEqual(decodeProtectedHeader(before).kid, kid);
    const reply = await call(server, 'GET', '/documents/oidc/shared.pdf', { auth: bearer(after), headers: { accept: 'application/pdf' } });
    assert.equal(reply.status, 200, reply.text);
    assert.ok(reply.bytes.equals(pdf));
    assert.equal((await call(server, 'GET', '/documents/oidc/shared.pdf', { auth: bearer(before) })).status, 200);
  });

  test('with the provider stopped, a token of a key not cached yet is 503 while passwords, API tokens and cached keys still work', async () => {
    const cached = await provider.token(reader, ['pdf.read'], AUDIENCE);
    assert.equal((await call(server, 'GET', '/documents/oidc/shared.pdf', { auth: bearer(cached) })).status, 200);
    const kid = await provider.rotateAccessTokenKey();
    const uncached = await provider.token(reader, ['pdf.read'], AUDIENCE);
    assert.equal(decodeProtectedHeader(uncached).kid, kid);
    const carol = { username: 'carol', password: 'carol-password-1' };
    assert.equal((await call(server, 'POST', '/users', { body: { ...carol, rights: ['GET'] } })).status, 201);
    const created = await call(server, 'POST', '/tokens', { auth: basicAuth(carol.username, carol.password), body: { name: 'script' } });
    assert.equal(created.status, 201, created.text);
    const apiToken = created.json().token as string;

    await provider.stop();
    const refused = await call(server, 'GET', '/documents/oidc/shared.pdf', { auth: bearer(uncached) });
    assert.equal(refused.status, 503, refused.text);
    assert.equal(refused.json().code, 'OIDC_PROVIDER_UNAVAILABLE');
    assert.match(refused.headers.get('retry-after') ?? '', /^\d+$/);

    for (const auth of [server.adminAuth, basicAuth(carol.username, carol.password), bearer(apiToken), bearer(cached)]) {
      const reply = await call(server, 'GET', '/documents/oidc/shared.pdf', { auth, headers: { accept: 'application/pdf' } });
      assert.equal(reply.status, 200, reply.text);
      assert.ok(reply.bytes.equals(pdf));
    }
  });
});

describe('OpenID Connect settings', () => {
  test('the issuer needs an audience, https (http on loopback only) and a mapping of known rights', () => {
    assert.throws(() => loadConfig({ PDFSERVICE_OIDC_ISSUER: 'https://id.example.org/realms/pdf' }), /PDFSERVICE_OIDC_AUDIENCE must be set/);
    assert.throws(() => loadConfig({ PDFSERVICE_OIDC_ISSUER: 'http://id.example.org/', PDFSERVICE_OIDC_AUDIENCE: 'pdf' }), /PDFSERVICE_OIDC_ISSUER must be an https URL/);
    const bad = loadConfig({ PDFSERVICE_OIDC_ISSUER: 'https://id.example.org/', PDFSERVICE_OIDC_AUDIENCE: 'pdf', PDFSERVICE_OIDC_RIGHTS: 'readers=GET,READ' });
    assert.throws(() => new OidcVerifier({ ...bad, oidcIssuer: bad.oidcIssuer!, oidcAudience: bad.oidcAudience! }), /PDFSERVICE_OIDC_RIGHTS gives "readers" "READ"/);
    assert.throws(() => loadConfig({ PDFSERVICE_OIDC_RIGHTS: 'GET' }), /not value=RIGHT/);
    const config = loadConfig({ PDFSERVICE_OIDC_ISSUER: 'http://127.0.0.1:4444/', PDFSERVICE_OIDC_AUDIENCE: 'pdf', PDFSERVICE_OIDC_RIGHTS: 'readers=GET; editors=GET,PUT ;editors=POST' });
    assert.equal(config.oidcIssuer, 'http://127.0.0.1:4444/');
    assert.deepEqual([...config.oidcRights], [['readers', ['GET']], ['editors', ['GET', 'PUT', 'POST']]]);
  });
});

// The OpenID Connect provider of the tests (test/helpers/oidc-provider.ts, docs/oidc.md "The test provider"): panva's
// oidc-provider (an OpenID Certified implementation) in a process of its own on a loopback port, issuing JWT access
// tokens (RFC 9068) to OAuth2 clients by the client_credentials grant, and to people signing in through a client of the
// authorization-code flow (the console's sign-in, docs/oidc.md "Console sign-in").
//
//   node test/oidc/provider.mjs CONFIG.json
//
// CONFIG.json: { "port": n, "keys": [private JWKs; the first signs], "clients": [{ "client_id", "client_secret",
// "scope", "audiences": [...], "redirect_uris"?: [...] }], "resources": { "<resource indicator>": { "audience", "scope" } } }. A token
// request names the resource server by its resource indicator (RFC 8707); the token's `aud` is that server's audience
// and its `scope` claim the granted scopes. A client with redirect_uris uses the authorization-code flow (PKCE) instead:
// a person signs in at the provider's own pages (any login name, any password: the login name is the `sub`) and
// consents there. Every key of the file is published in the JWKS (public halves only).
// SIGHUP reads the file again and serves the new keys and clients on the same port (key rotation); tokens already
// issued stay what they are. Prints `listening <issuer>` when it serves, `reloaded` after a SIGHUP.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import Provider, { errors } from 'oidc-provider';

const file = process.argv[2];
if (!file) {
  console.error('usage: node test/oidc/provider.mjs CONFIG.json');
  process.exit(2);
}

function build() {
  const config = JSON.parse(readFileSync(file, 'utf8'));
  const issuer = `http://127.0.0.1:${config.port}`;
  const signingKid = config.keys[0].kid;
  const provider = new Provider(issuer, {
    jwks: { keys: config.keys },
    // The scopes clients may hold: those of the resource servers.
    scopes: ['openid', ...new Set(Object.values(config.resources).flatMap((resource) => resource.scope.split(' ')))],
    clients: config.clients.map((client) => ({
      client_id: client.client_id,
      client_secret: client.client_secret,
      ...(client.redirect_uris
        ? { grant_types: ['authorization_code'], response_types: ['code'], redirect_uris: client.redirect_uris, scope: `openid ${client.scope}` }
        : { grant_types: ['client_credentials'], response_types: [], redirect_uris: [], scope: client.scope }),
      pdfservice_test_audiences: client.audiences,
    })),
    // Any login name is an account whose sub it is (oidc-provider's default account model, for development).
    findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => ({ sub }) }),
    // Fixed cookie keys: the provider's interaction cookies stay valid across a SIGHUP.
    cookies: { keys: ['pdfservice-test-provider-cookie-key'] },
    extraClientMetadata: { properties: ['pdfservice_test_audiences'] },
    features: {
      clientCredentials: { enabled: true },
      // The provider's own login and consent pages (any name and password), for the console's sign-in.
      devInteractions: { enabled: true },
      resourceIndicators: {
        enabled: true,
        // A client may ask for the resource servers whose audience its registration lists, nothing else.
        getResourceServerInfo(_ctx, indicator, client) {
          const resource = config.resources[indicator];
          if (!resource || !(client.pdfservice_test_audiences ?? []).includes(resource.audience)) throw new errors.InvalidTarget();
          return {
            audience: resource.audience,
            scope: resource.scope,
            accessTokenFormat: 'jwt',
            accessTokenTTL: 600,
            jwt: { sign: { alg: 'RS256', kid: signingKid } },
          };
        },
      },
    },
  });
  return { issuer, port: config.port, callback: provider.callback() };
}

let current = build();
const server = http.createServer((req, res) => current.callback(req, res));
server.listen(current.port, '127.0.0.1', () => console.log(`listening ${current.issuer}`));
process.on('SIGHUP', () => {
  try {
    current = build();
    console.log('reloaded');
  } catch (error) {
    console.log(`reload failed: ${error}`);
  }
});
process.on('SIGTERM', () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
});

// The OpenID Connect provider of the tests (test/helpers/oidc-provider.ts, docs/oidc.md "The test provider"): panva's
// oidc-provider (an OpenID Certified implementation) in a process of its own on a loopback port, issuing JWT access
// tokens (RFC 9068) to OAuth2 clients by the client_credentials grant.
//
//   node test/oidc/provider.mjs CONFIG.json
//
// CONFIG.json: { "port": n, "keys": [private JWKs; the first signs], "clients": [{ "client_id", "client_secret",
// "scope", "audiences": [...] }], "resources": { "<resource indicator>": { "audience", "scope" } } }. A token
// request names the resource server by its resource indicator (RFC 8707); the token's `aud` is that server's audience
// and its `scope` claim the granted scopes. Every key of the file is published in the JWKS (public halves only).
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
    scopes: [...new Set(Object.values(config.resources).flatMap((resource) => resource.scope.split(' ')))],
    clients: config.clients.map((client) => ({
      client_id: client.client_id,
      client_secret: client.client_secret,
      grant_types: ['client_credentials'],
      response_types: [],
      redirect_uris: [],
      scope: client.scope,
      pdfservice_test_audiences: client.audiences,
    })),
    extraClientMetadata: { properties: ['pdfservice_test_audiences'] },
    features: {
      clientCredentials: { enabled: true },
      devInteractions: { enabled: false },
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

// A real OpenID provider for docs-mcp's OAuth tests: panva's certified
// oidc-provider, configured as an organisation's authorization server would
// be for docs-mcp (resource indicators, JWT access tokens for the resource).
//
//   node idp.mjs CONFIG.json
//
// CONFIG: {"port": N, "issuer": URL, "jwks": {"keys": [private JWKs]},
//          "resources": [URL...], "scope": "docs:read ..."}
//
// Clients: "machine" (client credentials, secret "machine-secret"; tokens
// signed RS256), "machine-es" (the same, ES256), "cli" (public, code flow
// with PKCE, any loopback redirect), and any client that registers itself
// (dynamic registration, as MCP clients do). The login is headless: the
// interaction step signs in the account named by login_hint ("alice" by
// default) and grants what the client asked for, without a page.
//
// Prints "ready ISSUER" on stdout once it listens.
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import Provider, { errors } from 'oidc-provider';

const config = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const resources = new Set(config.resources);

const provider = new Provider(config.issuer, {
  jwks: config.jwks,
  clients: [
    { client_id: 'machine', client_secret: 'machine-secret', grant_types: ['client_credentials'], response_types: [], redirect_uris: [] },
    { client_id: 'machine-es', client_secret: 'machine-secret', grant_types: ['client_credentials'], response_types: [], redirect_uris: [] },
    {
      client_id: 'cli', token_endpoint_auth_method: 'none', application_type: 'native',
      grant_types: ['authorization_code'], response_types: ['code'], redirect_uris: ['http://127.0.0.1/callback'],
    },
  ],
  scopes: ['openid', ...config.scope.split(' ')],
  pkce: { required: () => true },
  features: {
    devInteractions: { enabled: false },
    clientCredentials: { enabled: true },
    registration: { enabled: true },
    resourceIndicators: {
      enabled: true,
      defaultResource: () => undefined,
      useGrantedResource: () => true,
      getResourceServerInfo(ctx, indicator, client) {
        if (!resources.has(indicator)) {
          throw new errors.InvalidTarget();
        }
        return {
          scope: config.scope,
          audience: indicator,
          accessTokenTTL: 600,
          accessTokenFormat: 'jwt',
          jwt: { sign: { alg: client.clientId === 'machine-es' ? 'ES256' : 'RS256' } },
        };
      },
    },
  },
  findAccount: (ctx, id) => ({ accountId: id, claims: () => ({ sub: id }) }),
  interactions: { url: (ctx, interaction) => `/interaction/${interaction.uid}` },
  clientBasedCORS: () => true,
});
provider.on('server_error', (ctx, err) => console.error('server_error', err));

// interaction signs in and consents without a page.
async function interaction(req, res) {
  const details = await provider.interactionDetails(req, res);
  const { prompt, params } = details;
  if (prompt.name === 'login') {
    const accountId = params.login_hint || 'alice';
    return provider.interactionFinished(req, res, { login: { accountId } }, { mergeWithLastSubmission: false });
  }
  const grant = details.grantId
    ? await provider.Grant.find(details.grantId)
    : new provider.Grant({ accountId: details.session.accountId, clientId: params.client_id });
  const missing = prompt.details;
  if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
  if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
  for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {})) {
    grant.addResourceScope(indicator, scopes.join(' '));
  }
  const grantId = await grant.save();
  return provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
}

const callback = provider.callback();
const server = createServer((req, res) => {
  if (req.url.startsWith('/interaction/')) {
    interaction(req, res).catch((err) => {
      console.error('interaction', err);
      res.statusCode = 500;
      res.end(String(err));
    });
    return;
  }
  callback(req, res);
});
server.listen(config.port, '127.0.0.1', () => {
  console.log(`ready ${config.issuer}`);
});
for (const sig of ['SIGTERM', 'SIGINT']) {
  process.on(sig, () => server.close(() => process.exit(0)));
}

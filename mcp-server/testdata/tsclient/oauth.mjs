// The official MCP TypeScript SDK client's OAuth support against docs-mcp in
// resource-server mode (run by the Go tests, with a real OpenID provider):
//
//   node oauth.mjs URL
//
// The SDK does the protocol: it meets the 401, reads resource_metadata from
// WWW-Authenticate, fetches the Protected Resource Metadata and the
// authorization server's metadata, registers itself (dynamic client
// registration), builds the authorization request with PKCE and the
// resource indicator, exchanges the code for a token and retries. The one
// step a browser would do, following the authorization URL through sign-in
// and consent to the redirect URI, is done here headless: fetch with
// cookies, stopping at the redirect URI. Prints one JSON summary; never the
// tokens.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { searchHits } from './hits.mjs';

const url = new URL(process.argv[2]);
const redirectUrl = 'http://127.0.0.1/callback';
const requests = []; // every request the SDK made: method, URL without query, status

async function recordingFetch(input, init) {
  const res = await fetch(input, init);
  const u = new URL(String(input instanceof Request ? input.url : input));
  requests.push(`${init?.method ?? 'GET'} ${u.origin}${u.pathname} ${res.status}`);
  return res;
}

class HeadlessProvider {
  constructor() {
    this.summary = {};
  }
  get redirectUrl() { return redirectUrl; }
  get clientMetadata() {
    return {
      client_name: 'docs-mcp OAuth test', redirect_uris: [redirectUrl], application_type: 'native',
      grant_types: ['authorization_code'], response_types: ['code'], token_endpoint_auth_method: 'none',
    };
  }
  clientInformation() { return this.client; }
  saveClientInformation(info) {
    this.client = info;
    this.summary.registeredClient = Boolean(info.client_id);
  }
  tokens() { return this.saved; }
  saveTokens(tokens) {
    this.saved = tokens;
    this.summary.tokenType = tokens.token_type;
  }
  saveCodeVerifier(v) { this.verifier = v; }
  codeVerifier() { return this.verifier; }

  // The browser's part, headless: follow the provider's redirects, keeping
  // its cookies, until it sends the user agent to the redirect URI.
  async redirectToAuthorization(authorizationUrl) {
    const q = authorizationUrl.searchParams;
    this.summary.authorization = {
      codeChallengeMethod: q.get('code_challenge_method'), hasCodeChallenge: Boolean(q.get('code_challenge')),
      resource: q.get('resource'), scope: q.get('scope'), clientId: q.get('client_id') === this.client?.client_id,
    };
    const cookies = new Map();
    let next = authorizationUrl;
    for (let hops = 0; hops < 10; hops++) {
      const res = await fetch(next, {
        redirect: 'manual',
        headers: { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
      });
      for (const c of res.headers.getSetCookie()) {
        const [pair] = c.split(';');
        const i = pair.indexOf('=');
        cookies.set(pair.slice(0, i), pair.slice(i + 1));
      }
      const location = res.headers.get('location');
      if (!location) {
        throw new Error(`authorization stopped at ${res.status}: ${await res.text()}`);
      }
      next = new URL(location, next);
      if (next.href.startsWith(redirectUrl)) {
        this.code = next.searchParams.get('code');
        this.summary.redirectHops = hops + 1;
        return;
      }
    }
    throw new Error('authorization: too many redirects');
  }
}

const provider = new HeadlessProvider();
const first = new StreamableHTTPClientTransport(url, { authProvider: provider, fetch: recordingFetch });
try {
  await new Client({ name: 'docs-mcp-oauth-test', version: '1' }).connect(first);
  throw new Error('connected without authorization');
} catch (err) {
  if (!(err instanceof UnauthorizedError)) throw err;
  provider.summary.unauthorizedFirst = true;
}
await first.finishAuth(provider.code);

const transport = new StreamableHTTPClientTransport(url, { authProvider: provider, fetch: recordingFetch });
const client = new Client({ name: 'docs-mcp-oauth-test', version: '1' });
await client.connect(transport);
const search = await client.callTool({ name: 'mod_search_docs', arguments: { query: 'hook' } });
provider.summary.search = { isError: Boolean(search.isError), matches: searchHits(search.structuredContent).length };
provider.summary.protocol = transport.protocolVersion ?? '';
await client.close();

console.log(JSON.stringify({ ...provider.summary, requests }));

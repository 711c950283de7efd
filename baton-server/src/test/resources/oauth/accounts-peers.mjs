// The peers of the test of users' own accounts on an external MCP server: a real OpenID provider (oidc-provider) as
// the authorization server, and an MCP server on the official TypeScript SDK that requires its access tokens and
// answers with the caller's own data.
//
// usage: node accounts-peers.mjs <baton's callback URL>
// Prints one line {"issuer": "...", "mcpUrl": "...", "steadyUrl": "..."} on stdout once both serve.
//  - the provider: authorization code with PKCE for the public client "baton" (redirect URI: the callback), the
//    development login and consent forms, open dynamic client registration (any login name becomes the account's sub), RFC 8707 resource indicators
//    issuing RS256 JWT access tokens for each MCP endpoint's URL, refresh tokens, and revocation.
//  - the MCP server: stateless streamable HTTP at /mcp (tokens live 20 s) and /steady/mcp (300 s); a request without
//    a valid token for that endpoint (signature by the provider's JWKS, issuer, audience, not forgotten) is 401 with
//    WWW-Authenticate naming its RFC 9728 metadata, served at /.well-known/oauth-protected-resource + the path. Its
//    tools: whoami (the token's sub, and how many of that sub's requests it refused), my_items (that sub's items) and
//    forget_this_token (the token of the call is refused from then on, as a server that revoked it would).
import http from 'node:http';
import Provider from 'oidc-provider';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

const callback = process.argv[2];
if (!callback) {
  console.error('usage: node accounts-peers.mjs <callback URL>');
  process.exit(2);
}

const listen = async (server) => {
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${server.address().port}`;
};

const providerServer = http.createServer();
const mcpServer = http.createServer();
const issuer = await listen(providerServer);
const mcpOrigin = await listen(mcpServer);
const mcpUrl = `${mcpOrigin}/mcp`;
const steadyUrl = `${mcpOrigin}/steady/mcp`;
const ttl = { [mcpUrl]: 20, [steadyUrl]: 300 };

const provider = new Provider(issuer, {
  clients: [
    {
      client_id: 'baton',
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      redirect_uris: [callback],
    },
  ],
  features: {
    devInteractions: { enabled: true },
    revocation: { enabled: true },
    // dynamic client registration (RFC 7591), for a server configured with no client of its own
    registration: { enabled: true },
    resourceIndicators: {
      enabled: true,
      defaultResource: () => undefined,
      useGrantedResource: () => true,
      getResourceServerInfo: (ctx, indicator) => {
        if (!(indicator in ttl)) throw new Provider.errors.InvalidTarget();
        return {
          scope: 'mcp',
          audience: indicator,
          // /mcp's are shorter than Baton's refresh margin (30 s): every call refreshes first, so the test exercises
          // refresh (and the rotation of the refresh token oidc-provider does for public clients) on every call;
          // /steady/mcp's last, so a token the server refuses is refreshed after the refusal
          accessTokenTTL: ttl[indicator],
          accessTokenFormat: 'jwt',
          jwt: { sign: { alg: 'RS256' } },
        };
      },
    },
  },
  scopes: ['openid', 'mcp'],
  pkce: { required: () => true },
  issueRefreshToken: async (ctx, client) => client.grantTypeAllowed('refresh_token'),
  findAccount: async (ctx, sub) => ({ accountId: sub, claims: async () => ({ sub }) }),
});
provider.on('server_error', (ctx, err) => console.error('server_error', err));
providerServer.on('request', provider.callback());

const jwks = createRemoteJWKSet(new URL(`${issuer}/jwks`));
const items = { alice: ["alice's notebook", "alice's tea"], bob: ["bob's bicycle"] };
const forgotten = new Set();
const refusals = {};

const readBody = (req) =>
  new Promise((resolve, reject) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });

const unauthorized = (res, path, error) => {
  res.writeHead(401, {
    'WWW-Authenticate':
      `Bearer resource_metadata="${mcpOrigin}/.well-known/oauth-protected-resource${path}"` +
      (error ? `, error="${error}"` : ''),
    'Content-Type': 'application/json',
  });
  res.end(JSON.stringify({ error: error ?? 'unauthorized' }));
};

mcpServer.on('request', async (req, res) => {
  try {
    const prefix = '/.well-known/oauth-protected-resource';
    if (req.url.startsWith(prefix) && `${mcpOrigin}${req.url.slice(prefix.length)}` in ttl) {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      const resource = `${mcpOrigin}${req.url.slice(prefix.length)}`;
      res.end(JSON.stringify({ resource, authorization_servers: [issuer], bearer_methods_supported: ['header'] }));
      return;
    }
    const resource = `${mcpOrigin}${req.url}`;
    if (!(resource in ttl)) {
      res.writeHead(404).end();
      return;
    }
    const authorization = req.headers.authorization ?? '';
    if (!authorization.startsWith('Bearer ')) return unauthorized(res, req.url);
    let sub;
    let jti;
    try {
      const { payload } = await jwtVerify(authorization.slice(7), jwks, { issuer, audience: resource });
      sub = payload.sub;
      jti = payload.jti;
    } catch (e) {
      return unauthorized(res, req.url, 'invalid_token');
    }
    if (forgotten.has(jti)) {
      refusals[sub] = (refusals[sub] ?? 0) + 1;
      return unauthorized(res, req.url, 'invalid_token');
    }
    if (req.method !== 'POST') {
      res.writeHead(405, { Allow: 'POST' }).end();
      return;
    }
    const body = JSON.parse(await readBody(req));
    // stateless: a server and transport per request, answering as the token's subject only
    const server = new McpServer({ name: 'accounts', version: '1.0.0' });
    server.registerTool(
      'whoami',
      { description: 'Tells whose account this is.', inputSchema: {}, annotations: { readOnlyHint: true } },
      async () => ({ content: [{ type: 'text', text: JSON.stringify({ sub, refusals: refusals[sub] ?? 0 }) }] }),
    );
    server.registerTool(
      'forget_this_token',
      { description: 'Refuses the token of this call from now on.', inputSchema: {} },
      async () => {
        forgotten.add(jti);
        return { content: [{ type: 'text', text: 'forgotten' }] };
      },
    );
    server.registerTool(
      'my_items',
      { description: "Lists the caller's own items.", inputSchema: {}, annotations: { readOnlyHint: true } },
      async () => ({ content: [{ type: 'text', text: JSON.stringify({ sub, items: items[sub] ?? [] }) }] }),
    );
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      transport.close();
      server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  } catch (e) {
    console.error('mcp server error', e);
    if (!res.headersSent) res.writeHead(500).end();
  }
});

process.stdout.write(JSON.stringify({ issuer, mcpUrl, steadyUrl }) + '\n');
process.on('SIGTERM', () => {
  providerServer.close();
  mcpServer.close(() => process.exit(0));
});

// A real OpenID provider (oidc-provider) for the OAuth discovery test of /mcp.
//
// usage: node identity-provider.mjs <resource>
// It listens on a free loopback port, prints one line {"issuer": "..."} on stdout once it serves, and issues
// RFC 9068 JWT access tokens by the client credentials grant for two resource indicators (RFC 8707): <resource>
// (Baton's /mcp) and https://other.example.org/api (a resource that is not Baton's, for the refusal case).
import http from 'node:http';
import Provider from 'oidc-provider';

const resource = process.argv[2];
if (!resource) {
  console.error('usage: node identity-provider.mjs <resource>');
  process.exit(2);
}
const OTHER = 'https://other.example.org/api';

const server = http.createServer();
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const issuer = `http://127.0.0.1:${server.address().port}`;

const provider = new Provider(issuer, {
  clients: [
    {
      client_id: 'mcp-client',
      client_secret: 'mcp-client-secret',
      grant_types: ['client_credentials'],
      redirect_uris: [],
      response_types: [],
      token_endpoint_auth_method: 'client_secret_basic',
    },
  ],
  features: {
    devInteractions: { enabled: false },
    clientCredentials: { enabled: true },
    resourceIndicators: {
      enabled: true,
      // a client that names no resource gets none: a token for Baton is always asked for by name
      defaultResource: () => undefined,
      useGrantedResource: () => false,
      getResourceServerInfo: (ctx, indicator) => {
        if (indicator !== resource && indicator !== OTHER) {
          throw new Provider.errors.InvalidTarget();
        }
        return {
          scope: 'mcp',
          audience: indicator,
          accessTokenTTL: 300,
          accessTokenFormat: 'jwt',
          jwt: { sign: { alg: 'RS256' } },
        };
      },
    },
  },
  scopes: ['openid', 'mcp'],
  // claims Baton reads from an access token: its tenant and its roles
  extraTokenClaims: () => ({ tenant: 'acme', roles: ['student'] }),
});
provider.on('server_error', (ctx, err) => console.error('server_error', err));

server.on('request', provider.callback());
process.stdout.write(JSON.stringify({ issuer }) + '\n');
process.on('SIGTERM', () => server.close(() => process.exit(0)));

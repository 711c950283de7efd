// The official MCP TypeScript SDK's client, given nothing but /mcp's URL and its client credentials: its transport
// meets the 401, follows resource_metadata, discovers the authorization server, gets a token by the client credentials
// grant and connects. Prints one JSON line: the tools, the call's result and the claims of the token it used.
//
// usage: node mcp-oauth-client.mjs <mcp url> <client id> <client secret> <expected issuer>
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ClientCredentialsProvider } from '@modelcontextprotocol/sdk/client/auth-extensions.js';

const [url, clientId, clientSecret, expectedIssuer] = process.argv.slice(2);
const provider = new ClientCredentialsProvider({ clientId, clientSecret, expectedIssuer, scope: 'mcp' });
const transport = new StreamableHTTPClientTransport(new URL(url), { authProvider: provider });
const client = new Client({ name: 'baton-oauth-it', version: '1.0.0' });
await client.connect(transport);
const listed = await client.listTools();
const result = await client.callTool({ name: 'add_task', arguments: { title: 'added by a discovering client' } });
const token = provider.tokens()?.access_token ?? '';
const claims = JSON.parse(Buffer.from(token.split('.')[1] ?? 'e30', 'base64url').toString());
await transport.terminateSession();
await client.close();
console.log(JSON.stringify({ tools: listed.tools.map((t) => t.name), result, claims }));

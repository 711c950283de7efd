// A remote MCP server for the crash drill of a remote tool call: stateless streamable HTTP on the official TypeScript
// SDK at /mcp, with one tool, charge_card, that records every call with the idempotency key Baton sends in its _meta
// (dev.baton/idempotencyKey) and does not answer until the test releases it. The test reads and steers it over HTTP:
//   GET  /calls    every call so far: [{"key": "...", "at": "..."}]
//   POST /release  the calls waiting answer, and every later call answers at once
//
// usage: node remote-tool-peer.mjs
// Prints one line {"mcpUrl": "...", "controlUrl": "..."} on stdout once it serves.
import http from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

const calls = [];
let released = false;
let release;
const releasedNow = new Promise((resolve) => {
  release = resolve;
});

const readBody = (req) =>
  new Promise((resolve, reject) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });

const server = http.createServer(async (req, res) => {
  try {
    if (req.url === '/calls' && req.method === 'GET') {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(calls));
      return;
    }
    if (req.url === '/release' && req.method === 'POST') {
      released = true;
      release();
      res.writeHead(204).end();
      return;
    }
    if (req.url !== '/mcp') {
      res.writeHead(404).end();
      return;
    }
    if (req.method !== 'POST') {
      res.writeHead(405, { Allow: 'POST' }).end();
      return;
    }
    const body = JSON.parse(await readBody(req));
    const mcp = new McpServer({ name: 'payments', version: '1.0.0' });
    mcp.registerTool(
      'charge_card',
      { description: "Charges the user's card.", inputSchema: {} },
      // (args, extra) with an input schema, (extra) without: the request's _meta is on extra
      async (first, second) => {
        const extra = second ?? first;
        calls.push({ key: extra?._meta?.['dev.baton/idempotencyKey'] ?? null, at: new Date().toISOString() });
        if (!released) await releasedNow;
        return { content: [{ type: 'text', text: JSON.stringify({ charged: true, call: calls.length }) }] };
      },
    );
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      transport.close();
      mcp.close();
    });
    await mcp.connect(transport);
    await transport.handleRequest(req, res, body);
  } catch (e) {
    console.error('mcp server error', e);
    if (!res.headersSent) res.writeHead(500).end();
  }
});

await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${server.address().port}`;
console.log(JSON.stringify({ mcpUrl: `${origin}/mcp`, controlUrl: origin }));

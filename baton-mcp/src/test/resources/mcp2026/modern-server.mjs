// An MCP server that speaks only the 2026-07-28 revision (the official TypeScript SDK v2, legacy: 'reject'): a
// client that tried the 2025 initialize handshake on it would be refused. It records the method header and the
// _meta of every request, readable at GET /seen, so a test can check what the client sent.
import http from 'node:http';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';

const port = Number(process.env.PORT);
const seen = [];

function server() {
  const s = new McpServer({ name: 'modern-peer', version: '1.0.0' });
  s.registerTool(
    'echo',
    { description: 'Echoes the text back', inputSchema: z.object({ text: z.string() }) },
    async ({ text }) => ({ content: [{ type: 'text', text: 'echo: ' + text }] })
  );
  s.registerTool(
    'fail',
    { description: 'Always reports a tool error', inputSchema: z.object({}) },
    async () => ({ content: [{ type: 'text', text: 'it failed' }], isError: true })
  );
  s.registerTool(
    'slow',
    { description: 'Answers after 20 seconds', inputSchema: z.object({}) },
    async () => {
      await new Promise((resolve) => setTimeout(resolve, 20000));
      return { content: [{ type: 'text', text: 'late' }] };
    }
  );
  s.registerPrompt(
    'summarise',
    { description: 'Asks for a summary of a topic', argsSchema: z.object({ topic: z.string() }) },
    ({ topic }) => ({ messages: [{ role: 'user', content: { type: 'text', text: 'Summarise ' + topic + ' in one line.' } }] })
  );
  // resources for the context of agents: a text that may be kept a minute, one longer than a test's bound (the SDK's
  // default ttlMs, 0: not to be kept), and a binary one
  s.registerResource(
    'handbook',
    'file:///handbook.md',
    { description: 'The team handbook', mimeType: 'text/markdown', cacheHint: { ttlMs: 60000, cacheScope: 'public' } },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/markdown', text: '# Handbook\nThe secret word is PERIWINKLE.' }] })
  );
  s.registerResource(
    'long',
    'file:///long.txt',
    { description: 'A long text', mimeType: 'text/plain' },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'é'.repeat(3000) + 'THE-END' }] })
  );
  s.registerResource(
    'logo',
    'file:///logo.png',
    { description: 'A picture', mimeType: 'image/png' },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'image/png', blob: Buffer.alloc(300, 7).toString('base64') }] })
  );
  return s;
}

const handler = createMcpHandler(server, { legacy: 'reject' });

http
  .createServer(async (req, res) => {
    if (req.method === 'GET' && req.url === '/seen') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(seen));
      return;
    }
    // a client that gives up on a request closes its connection before the answer: recorded as 'closed-early'
    res.on('close', () => {
      if (!res.writableEnded) seen.push({ method: 'closed-early', url: req.url });
    });
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const body = Buffer.concat(chunks);
    try {
      const parsed = JSON.parse(body.toString('utf8'));
      seen.push({
        method: parsed.method,
        mcpMethod: req.headers['mcp-method'] ?? null,
        mcpName: req.headers['mcp-name'] ?? null,
        user: req.headers['x-user'] ?? null,
        apiKey: req.headers['x-api-key'] ?? null,
        meta: parsed.params?._meta ?? null,
        uri: parsed.params?.uri ?? null,
      });
    } catch {
      seen.push({ method: null });
    }
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (Array.isArray(value)) value.forEach((v) => headers.append(name, v));
      else if (value !== undefined) headers.set(name, value);
    }
    const request = new Request('http://' + req.headers.host + req.url, {
      method: req.method,
      headers,
      body: req.method === 'GET' || req.method === 'HEAD' ? undefined : body,
    });
    const response = await handler.fetch(request);
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (response.body) {
      for await (const chunk of response.body) res.write(chunk);
    }
    res.end();
  })
  .listen(port, '127.0.0.1', () => console.log('listening on ' + port));

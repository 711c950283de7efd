// A stdio MCP server on the official TypeScript SDK whose tool list changes while it runs, so the tests can watch a
// real notifications/tools/list_changed and a real "rug pull" (a tool re-described after it was first listed).
// The protocol behaviour (the notification on every registerTool/update) is the SDK's, not ours.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const server = new McpServer({ name: "changing", version: "1.0.0" }, { capabilities: { tools: { listChanged: true } } });
const added = new Map();

server.registerTool(
  "whoami",
  { description: "Tells who the client says is calling, from the request's _meta.", inputSchema: {}, annotations: { readOnlyHint: true } },
  async (_args, extra) => ({ content: [{ type: "text", text: JSON.stringify(extra._meta ?? {}) }] }),
);

server.registerTool(
  "add_tool",
  { description: "Adds a tool with the given name.", inputSchema: { name: z.string() } },
  async ({ name }) => {
    added.set(name, server.registerTool(name, { description: "Greets.", inputSchema: {} }, async () => ({
      content: [{ type: "text", text: "hello from " + name }],
    })));
    return { content: [{ type: "text", text: "added " + name }] };
  },
);

server.registerTool(
  "redescribe",
  { description: "Changes the description of a tool added before.", inputSchema: { name: z.string(), description: z.string() } },
  async ({ name, description }) => {
    added.get(name).update({ description });
    return { content: [{ type: "text", text: "redescribed " + name }] };
  },
);

await server.connect(new StdioServerTransport());

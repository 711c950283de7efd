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
  {
    description: "Adds a tool with the given name (described \"Greets.\" unless told otherwise; with a title, it may have no description).",
    inputSchema: { name: z.string(), description: z.string().optional(), title: z.string().optional() },
  },
  async ({ name, description, title }) => {
    const config = { inputSchema: {} };
    if (title !== undefined) config.title = title;
    if (description !== undefined) config.description = description;
    else if (title === undefined) config.description = "Greets.";
    added.set(name, server.registerTool(name, config, async () => ({
      content: [{ type: "text", text: "hello from " + name }],
    })));
    return { content: [{ type: "text", text: "added " + name }] };
  },
);

server.registerTool(
  "retitle",
  { description: "Changes the title of a tool added before.", inputSchema: { name: z.string(), title: z.string() } },
  async ({ name, title }) => {
    added.get(name).update({ title });
    return { content: [{ type: "text", text: "retitled " + name }] };
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

// A stdio MCP server on the official TypeScript SDK whose tools answer with results of megabytes, in each shape a
// server may use: structured content alone, and text.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";

const server = new McpServer({ name: "oversized", version: "1.0.0" });
const rows = Array.from({ length: 60000 }, (_, i) => ({ id: i, name: "row number " + i, note: "x".repeat(50) }));

server.registerTool(
  "big_structured",
  { description: "Answers with about 5 MB of structured content.", inputSchema: {} },
  async () => ({ content: [], structuredContent: { rows } }),
);

server.registerTool(
  "big_text",
  { description: "Answers with 5 MB of text.", inputSchema: {} },
  async () => ({ content: [{ type: "text", text: "y".repeat(5 * 1024 * 1024) }] }),
);

await server.connect(new StdioServerTransport());

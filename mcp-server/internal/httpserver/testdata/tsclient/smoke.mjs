// Smoke test: the official MCP TypeScript SDK client against docs-mcp over
// Streamable HTTP. Usage: node smoke.mjs http://127.0.0.1:PORT/mcp
// With DOCS_MCP_TEST_TOKEN set, it sends it as a bearer token.
// Prints one JSON object describing what it saw; the Go test compares it.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const url = new URL(process.argv[2]);
const token = process.env.DOCS_MCP_TEST_TOKEN;
const transport = new StreamableHTTPClientTransport(url, token
  ? { requestInit: { headers: { Authorization: `Bearer ${token}` } } }
  : undefined);
const client = new Client({ name: "tsclient-smoke", version: "1.0.0" });
await client.connect(transport);

const out = {};
out.protocolVersion = transport.protocolVersion;
out.session = Boolean(transport.sessionId);
out.server = client.getServerVersion()?.name;

const tools = await client.listTools();
out.tools = tools.tools.map((t) => t.name).sort();

const search = await client.callTool({ name: "mod_search_docs", arguments: { query: "player.joined" } });
out.searchHits = search.structuredContent.matches.map((m) => `${m.path}:${m.line}`);

const read = await client.callTool({ name: "mod_read_doc", arguments: { path: "index.md" } });
out.readFirstLine = read.structuredContent.content.split("\n")[0];

const bad = await client.callTool({ name: "mod_read_doc", arguments: { path: "../CONTRIBUTING.md" } });
out.outsideDocsIsError = Boolean(bad.isError);

const resources = await client.listResources();
out.resources = resources.resources.length;
const doc = await client.readResource({ uri: "docs://guide/hooks.md" });
out.resourceMimeType = doc.contents[0].mimeType;

const prompt = await client.getPrompt({ name: "mod_modding_context" });
out.prompt = prompt.messages.length > 0;

await transport.terminateSession();
out.terminated = transport.sessionId === undefined;
await client.close();
console.log(JSON.stringify(out));

// Drives docs-mcp with the official MCP TypeScript SDK client and prints a
// JSON summary of what it saw; the Go tests check the summary.
//
//   node smoke.mjs stdio <command> [args...]
//   node smoke.mjs http <url> [bearer-token]
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { searchHits } from "./hits.mjs";

const [mode, target, ...rest] = process.argv.slice(2);
let transport;
if (mode === "stdio") {
  transport = new StdioClientTransport({ command: target, args: rest, stderr: "ignore" });
} else if (mode === "http") {
  const headers = rest[0] ? { Authorization: `Bearer ${rest[0]}` } : {};
  transport = new StreamableHTTPClientTransport(new URL(target), { requestInit: { headers } });
} else {
  console.error("usage: node smoke.mjs stdio <command> [args...] | http <url> [token]");
  process.exit(2);
}

const client = new Client({ name: "ts-sdk-smoke", version: "1.0.0" });
await client.connect(transport);

const summary = { server: client.getServerVersion(), protocol: transport.protocolVersion ?? null };
summary.tools = (await client.listTools()).tools.map((t) => t.name).sort();

const search = await client.callTool({ name: "mod_search_docs", arguments: { query: "hook", limit: 5 } });
const hits = searchHits(search.structuredContent);
summary.search = { isError: !!search.isError, matches: hits.length };
const first = hits[0];

if (first) {
  const read = await client.callTool({ name: "mod_read_doc", arguments: { path: first.path, start_line: first.line, end_line: first.line } });
  summary.read = { isError: !!read.isError, path: read.structuredContent?.path, line: read.structuredContent?.start_line, containsQuery: read.structuredContent?.content?.toLowerCase().includes("hook") };
}

const bad = await client.callTool({ name: "mod_read_doc", arguments: { path: "../etc/passwd" } });
summary.badPath = { isError: !!bad.isError, text: bad.content?.[0]?.text ?? "" };

const registry = await client.callTool({ name: "mod_hook_registry", arguments: {} });
summary.registry = { isError: !!registry.isError, bytes: registry.structuredContent?.bytes ?? 0 };

const resources = await client.listResources();
summary.resources = resources.resources.length;
const doc = resources.resources.find((r) => r.uri.startsWith("docs://"));
if (doc) {
  const contents = await client.readResource({ uri: doc.uri });
  summary.resourceRead = { uri: doc.uri, mimeType: contents.contents[0].mimeType, bytes: contents.contents[0].text.length };
}

const prompt = await client.getPrompt({ name: "mod_modding_context", arguments: { task: "add a hook" } });
summary.promptBytes = prompt.messages[0].content.text.length;

// completion/complete: doc paths from the top, hook names for hook://{name}
// and for the prompt's hook argument.
const complete = async (ref, name, value) => (await client.complete({ ref, argument: { name, value } })).completion.values;
summary.completion = {
  capability: !!client.getServerCapabilities()?.completions,
  paths: await complete({ type: "ref/resource", uri: "docs://{+path}" }, "path", ""),
  hooks: await complete({ type: "ref/resource", uri: "hook://{name}" }, "name", ""),
  promptHooks: await complete({ type: "ref/prompt", name: "mod_modding_context" }, "hook", "p"),
};

if (mode === "http") {
  summary.session = Boolean(transport.sessionId);
  await transport.terminateSession();
  summary.terminated = transport.sessionId === undefined;
}
await client.close();
console.log(JSON.stringify(summary));

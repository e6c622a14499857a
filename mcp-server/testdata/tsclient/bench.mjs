// Times mod_search_docs through the official MCP TypeScript SDK client over
// stdio, the whole callTool (the SDK's parsing and its validation of the
// structured content against the tool's output schema included), and
// prints p50 and p95 (docs/server/benchmarks.md):
//
//   npm ci --prefix mcp-server/testdata/tsclient
//   node mcp-server/testdata/tsclient/bench.mjs BIN DATA_ROOT QUERY [RUNS] [LIMIT]
//
// It waits 5 s after initialize (the index of 40,000 files is built in
// about 2 s) and makes one untimed call before the timed ones.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { searchHits } from "./hits.mjs";

const [bin, root, query, runs = "500", limit = "50"] = process.argv.slice(2);
if (!query) {
  console.error("usage: node bench.mjs BIN DATA_ROOT QUERY [RUNS] [LIMIT]");
  process.exit(2);
}
const transport = new StdioClientTransport({ command: bin, args: ["--stdio", "--data-root", root], stderr: "ignore" });
const client = new Client({ name: "ts-sdk-bench", version: "1.0.0" });
await client.connect(transport);
await new Promise((resolve) => setTimeout(resolve, 5000));
const call = () => client.callTool({ name: "mod_search_docs", arguments: { query, limit: Number(limit) } });
await call();
const times = [];
let matches = 0;
for (let i = 0; i < Number(runs); i++) {
  const begin = process.hrtime.bigint();
  const result = await call();
  times.push(Number(process.hrtime.bigint() - begin) / 1e6);
  matches = searchHits(result.structuredContent).length;
  if (result.isError || matches === 0) throw new Error(`search ${query}: no matches`);
}
times.sort((a, b) => a - b);
const at = (p) => times[Math.min(times.length - 1, Math.floor((times.length * p) / 100))].toFixed(3);
console.log(`${query}: ${matches} matches, callTool p50 ${at(50)} ms, p95 ${at(95)} ms over ${times.length} calls (TypeScript SDK, stdio)`);
await client.close();

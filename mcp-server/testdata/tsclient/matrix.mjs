// One cell of the interoperability matrix (tools/e2e/interop): the official
// TypeScript SDK client on one protocol revision and transport does what a
// user's client does (the steps of ../tsmatrix.mjs), and prints a JSON
// report for the Go test to check.
//
//   node matrix.mjs <revision> <data-root> stdio <command> [args...]
//   node matrix.mjs <revision> <data-root> http <url>
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { check, Notes, run } from "../tsmatrix.mjs";

const [revision, dataRoot, mode, target, ...rest] = process.argv.slice(2);

// The SDK's client always offers its newest revision; an older client is
// one that offers an older one, which the SDK accepts when the server
// answers with it.
function onRevision(transport) {
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    if (message.method === "initialize") {
      message = { ...message, params: { ...message.params, protocolVersion: revision } };
    }
    return send(message, options);
  };
  // The revision the server answered initialize with.
  let handler;
  Object.defineProperty(transport, "onmessage", {
    get: () => handler,
    set: (h) => {
      handler = (message, extra) => {
        if (message.result?.protocolVersion) negotiated = message.result.protocolVersion;
        return h(message, extra);
      };
    },
  });
  return transport;
}
let negotiated;

const notes = new Notes();
const client = new Client({ name: "interop-ts-sdk", version: "1.0.0" });
client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => notes.update(n.params.uri));
client.setNotificationHandler(ResourceListChangedNotificationSchema, () => notes.list());
let transport, child;

await run(client, notes, dataRoot, {
  async connect() {
    if (mode === "stdio") {
      transport = new StdioClientTransport({ command: target, args: rest, stderr: "ignore" });
    } else {
      transport = new StreamableHTTPClientTransport(new URL(target));
    }
    await client.connect(onRevision(transport));
    child = transport._process; // to see how the process ends (stdio)
    check(negotiated === revision, `negotiated ${negotiated}`);
  },
  async ping() {
    const res = await client.ping();
    check(res && Object.keys(res).length === 0, `result ${JSON.stringify(res)}`);
  },
  subscribe: (uri) => client.subscribeResource({ uri }),
  unsubscribe: (uri) => client.unsubscribeResource({ uri }),
  async close() {
    if (mode === "http") {
      await transport.terminateSession();
    }
    await client.close();
    return child && { code: child.exitCode, signal: child.signalCode };
  },
});

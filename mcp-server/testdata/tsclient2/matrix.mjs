// One cell of the interoperability matrix (tools/e2e/interop): the official
// TypeScript SDK v2 client (@modelcontextprotocol/client) on one protocol
// revision and transport does what a user's client does (the steps of
// ../tsmatrix.mjs, as the v1 client does them), and prints a JSON report
// for the Go test to check. On 2026-07-28 a subscription is a
// subscriptions/listen (the SDK's listen()), ended by closing it, as that
// revision has no resources/subscribe.
//
//   node matrix.mjs <revision> <data-root> stdio <command> [args...]
//   node matrix.mjs <revision> <data-root> http <url>
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { check, Notes, run } from "../tsmatrix.mjs";

const [revision, dataRoot, mode, target, ...rest] = process.argv.slice(2);
const modern = revision === "2026-07-28";

const notes = new Notes();
// 2026-07-28 is pinned (server/discover); an older revision is the one
// the legacy initialize offers, the only one the client supports.
const client = new Client(
  { name: "interop-ts-sdk-v2", version: "1.0.0" },
  modern
    ? { versionNegotiation: { mode: { pin: revision } } }
    : { versionNegotiation: { mode: "legacy" }, supportedProtocolVersions: [revision] },
);
client.setNotificationHandler("notifications/resources/updated", (n) => notes.update(n.params.uri));
client.setNotificationHandler("notifications/resources/list_changed", () => notes.list());
let transport, child, listen, lister;

await run(client, notes, dataRoot, {
  async connect() {
    if (mode === "stdio") {
      transport = new StdioClientTransport({ command: target, args: rest, stderr: "ignore" });
    } else {
      transport = new StreamableHTTPClientTransport(new URL(target));
    }
    await client.connect(transport);
    child = transport._process; // to see how the process ends (stdio)
    const negotiated = client.getNegotiatedProtocolVersion();
    check(negotiated === revision, `negotiated ${negotiated}`);
  },
  // An empty result on every revision that has ping. 2026-07-28 removed
  // it, and the SDK does not send it there: it refuses the call itself
  // (the server's answer to such a ping, 404 with -32601, is checked by the
  // Go tests over raw HTTP and by the conformance suite).
  async ping() {
    if (!modern) {
      const res = await client.ping();
      check(res && Object.keys(res).length === 0, `result ${JSON.stringify(res)}`);
      return;
    }
    let err;
    await client.ping().catch((e) => (err = e));
    check(err?.code === "METHOD_NOT_SUPPORTED_BY_PROTOCOL_VERSION", `want the SDK's refusal to send ping on 2026-07-28, got ${err ? `${err.code} ${err.message}` : "a result"}`);
  },
  async subscribe(uri) {
    if (!modern) return client.subscribeResource({ uri });
    // One listen for the doc, one for the list (which a session on an
    // older revision gets unasked): closing the first is the unsubscribe.
    listen = await client.listen({ resourceSubscriptions: [uri] });
    lister = await client.listen({ resourcesListChanged: true });
  },
  unsubscribe: (uri) => (modern ? listen.close() : client.unsubscribeResource({ uri })),
  async close() {
    if (lister) await lister.close();
    if (mode === "http" && !modern) {
      await transport.terminateSession();
    }
    await client.close();
    if (!child) return undefined;
    if (child.exitCode === null && child.signalCode === null) {
      await new Promise((resolve) => child.once("exit", resolve));
    }
    return { code: child.exitCode, signal: child.signalCode };
  },
});

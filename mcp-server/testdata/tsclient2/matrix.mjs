// One cell of the interoperability matrix (tools/e2e/interop): the official
// TypeScript SDK v2 client (@modelcontextprotocol/client) on one protocol
// revision and transport does what a user's client does, and prints a JSON
// report for the Go test to check (tool output schemas and structured
// results, which it validates). The steps are those of the v1 client
// (mcp-server/testdata/tsclient/matrix.mjs) and a ping; on 2026-07-28 a
// subscription is a subscriptions/listen (the SDK's listen()), ended by
// closing it, as that revision has no resources/subscribe.
//
//   node matrix.mjs <revision> <data-root> stdio <command> [args...]
//   node matrix.mjs <revision> <data-root> http <url>
//
// A failed step ends the script with exit code 1 and {"step", "error"} on
// stdout.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";

const [revision, dataRoot, mode, target, ...rest] = process.argv.slice(2);
const patience = 60_000;
const modern = revision === "2026-07-28";

let current = "start";
async function step(name, fn) {
  current = name;
  return await fn();
}
function check(ok, message) {
  if (!ok) throw new Error(message);
}

const notes = { updated: [], listChanged: 0 };
let arrived = () => {};
function awaitNote(ok, what) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${what} within ${patience} ms`)), patience);
    const look = () => {
      if (ok()) {
        clearTimeout(timer);
        resolve();
      } else {
        arrived = look;
      }
    };
    look();
  });
}
const writeDoc = (rel, text) => writeFileSync(join(dataRoot, "docs", rel), text);

try {
  const report = { tools: [], results: [] };
  let transport, child;
  // 2026-07-28 is pinned (server/discover); an older revision is the one
  // the legacy initialize offers, the only one the client supports.
  const client = new Client(
    { name: "interop-ts-sdk-v2", version: "1.0.0" },
    modern
      ? { versionNegotiation: { mode: { pin: revision } } }
      : { versionNegotiation: { mode: "legacy" }, supportedProtocolVersions: [revision] },
  );
  client.setNotificationHandler("notifications/resources/updated", (n) => {
    notes.updated.push(n.params.uri);
    arrived();
  });
  client.setNotificationHandler("notifications/resources/list_changed", () => {
    notes.listChanged++;
    arrived();
  });

  await step("connect", async () => {
    if (mode === "stdio") {
      transport = new StdioClientTransport({ command: target, args: rest, stderr: "ignore" });
    } else {
      transport = new StreamableHTTPClientTransport(new URL(target));
    }
    await client.connect(transport);
    child = transport._process; // to see how the process ends (stdio)
    const negotiated = client.getNegotiatedProtocolVersion();
    check(negotiated === revision, `negotiated ${negotiated}`);
  });

  // ping: an empty result on every revision that has it. 2026-07-28
  // removed it, and the SDK does not send it there: it refuses the call
  // itself (the server's answer to such a ping, 404 with -32601, is checked
  // by the Go tests over raw HTTP and by the conformance suite).
  await step("ping", async () => {
    if (!modern) {
      const res = await client.ping();
      check(res && Object.keys(res).length === 0, `result ${JSON.stringify(res)}`);
      return;
    }
    let err;
    await client.ping().catch((e) => (err = e));
    check(err?.code === "METHOD_NOT_SUPPORTED_BY_PROTOCOL_VERSION", `want the SDK's refusal to send ping on 2026-07-28, got ${err ? `${err.code} ${err.message}` : "a result"}`);
  });

  await step("list everything", async () => {
    let cursor;
    do {
      const page = await client.listTools({ cursor });
      report.tools.push(...page.tools.map((t) => ({ name: t.name, outputSchema: t.outputSchema })));
      cursor = page.nextCursor;
    } while (cursor);
    report.resources = 0;
    do {
      const page = await client.listResources({ cursor });
      report.resources += page.resources.length;
      cursor = page.nextCursor;
    } while (cursor);
    report.templates = (await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate);
    report.prompts = (await client.listPrompts()).prompts.map((p) => p.name);
  });

  const calls = JSON.parse(process.env.TOOL_CALLS);
  for (const [name, args] of Object.entries(calls)) {
    await step(`tools/call ${name}`, async () => {
      const res = await client.callTool({ name, arguments: args.valid });
      check(!res.isError, `tool error: ${JSON.stringify(res.content)}`);
      report.results.push({ tool: name, structuredContent: res.structuredContent });
    });
    if (args.invalid) {
      await step(`tools/call ${name} (invalid)`, async () => {
        const res = await client.callTool({ name, arguments: args.invalid });
        check(res.isError, "want a tool error, got a result");
      });
    }
  }

  for (const uri of ["docs://getting-started.md", "docs://pages%2Fpage-007.md", "repo://CONTRIBUTING.md", "repo://layout", "repo://framework/mod_hooks.json"]) {
    await step(`resources/read ${uri}`, async () => {
      const res = await client.readResource({ uri });
      check(res.contents.length === 1 && res.contents[0].text, JSON.stringify(res));
    });
  }
  await step("resources/read docs://no/such.md", async () => {
    let failed = false;
    await client.readResource({ uri: "docs://no/such.md" }).catch(() => (failed = true));
    check(failed, "no error");
  });
  await step("prompts/get", async () => {
    const p = await client.getPrompt({ name: "mod_modding_context" });
    check(p.messages.length > 0, "no messages");
  });

  const uri = "docs://getting-started.md";
  let listen, lister;
  await step("subscribe", async () => {
    if (!modern) return client.subscribeResource({ uri });
    // One listen for the doc, one for the list (which a session on an
    // older revision gets unasked): closing the first is the unsubscribe.
    listen = await client.listen({ resourceSubscriptions: [uri] });
    lister = await client.listen({ resourcesListChanged: true });
  });
  await step("resources/updated after an edit", async () => {
    writeDoc("getting-started.md", "# Getting started\n\nEdited.\n");
    await awaitNote(() => notes.updated.includes(uri), `resources/updated for ${uri}`);
  });
  await step("list_changed after a new doc", async () => {
    writeDoc("added.md", "# Added\n");
    await awaitNote(() => notes.listChanged > 0, "list_changed");
  });
  await step("unsubscribe", () => (modern ? listen.close() : client.unsubscribeResource({ uri })));
  await step("nothing after unsubscribing", async () => {
    const updates = notes.updated.length;
    const listed = notes.listChanged;
    writeDoc("getting-started.md", "# Getting started\n\nEdited after unsubscribing.\n");
    writeDoc("barrier.md", "# Barrier\n");
    await awaitNote(() => notes.listChanged > listed, "list_changed after unsubscribing");
    check(notes.updated.length === updates, `resources/updated ${notes.updated.slice(updates)}`);
  });

  await step("close", async () => {
    if (lister) await lister.close();
    if (mode === "http" && !modern) {
      await transport.terminateSession();
    }
    await client.close();
    if (child) {
      if (child.exitCode === null && child.signalCode === null) {
        await new Promise((resolve) => child.once("exit", resolve));
      }
      report.exit = { code: child.exitCode, signal: child.signalCode };
    }
  });
  console.log(JSON.stringify(report));
} catch (err) {
  console.log(JSON.stringify({ step: current, error: String(err?.stack ?? err) }));
  process.exit(1);
}

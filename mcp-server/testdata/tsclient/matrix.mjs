// One cell of the interoperability matrix (tools/e2e/interop): the official
// TypeScript SDK client on one protocol revision and transport does what a
// user's client does, and prints a JSON report for the Go test to check
// (tool output schemas and structured results, which it validates).
//
//   node matrix.mjs <revision> <data-root> stdio <command> [args...]
//   node matrix.mjs <revision> <data-root> http <url>
//
// A failed step ends the script with exit code 1 and {"step", "error"} on
// stdout.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";

const [revision, dataRoot, mode, target, ...rest] = process.argv.slice(2);
const patience = 60_000;

let current = "start";
async function step(name, fn) {
  current = name;
  return await fn();
}
function check(ok, message) {
  if (!ok) throw new Error(message);
}

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
  const client = new Client({ name: "interop-ts-sdk", version: "1.0.0" });
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
    notes.updated.push(n.params.uri);
    arrived();
  });
  client.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
    notes.listChanged++;
    arrived();
  });

  await step("connect", async () => {
    if (mode === "stdio") {
      transport = new StdioClientTransport({ command: target, args: rest, stderr: "ignore" });
    } else {
      transport = new StreamableHTTPClientTransport(new URL(target));
    }
    await client.connect(onRevision(transport));
    child = transport._process; // to see how the process ends (stdio)
    check(negotiated === revision, `negotiated ${negotiated}`);
  });

  await step("ping", async () => {
    const res = await client.ping();
    check(res && Object.keys(res).length === 0, `result ${JSON.stringify(res)}`);
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
  await step("subscribe", () => client.subscribeResource({ uri }));
  await step("resources/updated after an edit", async () => {
    writeDoc("getting-started.md", "# Getting started\n\nEdited.\n");
    await awaitNote(() => notes.updated.includes(uri), `resources/updated for ${uri}`);
  });
  await step("list_changed after a new doc", async () => {
    writeDoc("added.md", "# Added\n");
    await awaitNote(() => notes.listChanged > 0, "list_changed");
  });
  await step("unsubscribe", () => client.unsubscribeResource({ uri }));
  await step("nothing after unsubscribing", async () => {
    const updates = notes.updated.length;
    const listed = notes.listChanged;
    writeDoc("getting-started.md", "# Getting started\n\nEdited after unsubscribing.\n");
    writeDoc("barrier.md", "# Barrier\n");
    await awaitNote(() => notes.listChanged > listed, "list_changed after unsubscribing");
    check(notes.updated.length === updates, `resources/updated ${notes.updated.slice(updates)}`);
  });

  await step("close", async () => {
    if (mode === "http") {
      await transport.terminateSession();
    }
    await client.close();
    if (child) {
      report.exit = { code: child.exitCode, signal: child.signalCode };
    }
  });
  console.log(JSON.stringify(report));
} catch (err) {
  console.log(JSON.stringify({ step: current, error: String(err?.stack ?? err) }));
  process.exit(1);
}

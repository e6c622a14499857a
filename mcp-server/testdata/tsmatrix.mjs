// The steps of one cell of the interoperability matrix (tools/e2e/interop),
// shared by the official TypeScript SDK clients: tsclient/matrix.mjs (SDK
// v1) and tsclient2/matrix.mjs (SDK v2) each make their SDK's client and
// say how it connects, pings, subscribes, unsubscribes and closes; run does
// the rest through the methods both SDKs name alike, and prints a JSON
// report for the Go test to check (tool output schemas and structured
// results, which it validates). A failed step ends the script with exit
// code 1 and {"step", "error"} on stdout.
// The Go test says what to call and read, in JSON: TOOL_CALLS (each tool's
// valid and invalid arguments) and READ_URIS.
import { writeFileSync } from "node:fs";
import { join } from "node:path";

const patience = 60_000;

export function check(ok, message) {
  if (!ok) throw new Error(message);
}

// Notes counts the notifications a cell waits for; the client's handlers
// call updated and listChanged.
export class Notes {
  updated = [];
  listChanged = 0;
  #arrived = () => {};

  update(uri) {
    this.updated.push(uri);
    this.#arrived();
  }

  list() {
    this.listChanged++;
    this.#arrived();
  }

  // wait resolves once ok() holds, looking again at each notification.
  wait(ok, what) {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${what} within ${patience} ms`)), patience);
      const look = () => {
        if (ok()) {
          clearTimeout(timer);
          resolve();
        } else {
          this.#arrived = look;
        }
      };
      look();
    });
  }
}

// run does a cell's steps with client; the cell's own are
// { connect(), ping(), subscribe(uri), unsubscribe(uri), close() }, where
// close returns the server process's exit ({code, signal}) over stdio.
export async function run(client, notes, dataRoot, cell) {
  let current = "start";
  const step = async (name, fn) => {
    current = name;
    return await fn();
  };
  const writeDoc = (rel, text) => writeFileSync(join(dataRoot, "docs", rel), text);
  try {
    const report = { tools: [], results: [] };
    await step("connect", () => cell.connect());
    await step("ping", () => cell.ping());

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

    for (const uri of JSON.parse(process.env.READ_URIS)) {
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
    await step("subscribe", () => cell.subscribe(uri));
    await step("resources/updated after an edit", async () => {
      writeDoc("getting-started.md", "# Getting started\n\nEdited.\n");
      await notes.wait(() => notes.updated.includes(uri), `resources/updated for ${uri}`);
    });
    await step("list_changed after a new doc", async () => {
      writeDoc("added.md", "# Added\n");
      await notes.wait(() => notes.listChanged > 0, "list_changed");
    });
    // On 2026-07-28 the unsubscribe is the listen's cancellation, a
    // notification nobody answers: a request answered after it is the
    // sign that the server has read it (not ping, which that revision
    // does not have).
    await step("unsubscribe", async () => {
      await cell.unsubscribe(uri);
      await client.listPrompts();
    });
    await step("nothing after unsubscribing", async () => {
      const updates = notes.updated.length;
      const listed = notes.listChanged;
      writeDoc("getting-started.md", "# Getting started\n\nEdited after unsubscribing.\n");
      writeDoc("barrier.md", "# Barrier\n");
      await notes.wait(() => notes.listChanged > listed, "list_changed after unsubscribing");
      check(notes.updated.length === updates, `resources/updated ${notes.updated.slice(updates)}`);
    });

    await step("close", async () => {
      report.exit = await cell.close();
    });
    console.log(JSON.stringify(report));
  } catch (err) {
    console.log(JSON.stringify({ step: current, error: String(err?.stack ?? err) }));
    process.exit(1);
  }
}

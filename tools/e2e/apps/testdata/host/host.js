// The host of the docs reader's browser test (tools/e2e/apps): what Claude, ChatGPT or VS Code
// do for an MCP App, with the extension's own host side, AppBridge. It finds the app a tool
// names in its _meta, reads the ui:// resource, shows it in a sandboxed frame (scripts only, an
// opaque origin), calls the tool and hands the frame its arguments and answer. The frame's
// tools/call requests go to the real server through /rpc, which the test serves with a real MCP
// client over Streamable HTTP. window.host is what the test reads.
import { AppBridge, PostMessageTransport, getToolUiResourceUri } from "@modelcontextprotocol/ext-apps/app-bridge";

const host = (window.host = { ready: false, calls: [], opened: [], error: "" });

async function rpc(method, params) {
  const r = await fetch("/rpc", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ method, params }) });
  const answer = await r.json();
  if (answer.error) throw new Error(`${method}: ${answer.error.message}`);
  return answer.result;
}

async function start() {
  const q = new URLSearchParams(location.search);
  const tool = q.get("tool");
  const args = JSON.parse(q.get("args") || "{}");
  const { tools } = await rpc("tools/list", {});
  const declared = tools.find((t) => t.name === tool);
  const uri = declared && getToolUiResourceUri(declared);
  if (!uri) throw new Error(`${tool} names no app in its _meta`);
  const { contents } = await rpc("resources/read", { uri });
  const frame = document.createElement("iframe");
  frame.setAttribute("sandbox", "allow-scripts");
  frame.title = "Docs reader";
  frame.srcdoc = contents[0].text;
  document.getElementById("app").appendChild(frame);

  const bridge = new AppBridge(null, { name: "docs-mcp test host", version: "1" },
    { openLinks: {}, serverTools: {} },
    { hostContext: { theme: q.get("theme") || "light", platform: "web", displayMode: "inline" } });
  bridge.oncalltool = async (params) => {
    host.calls.push(params);
    return rpc("tools/call", params);
  };
  bridge.onopenlink = async ({ url }) => {
    host.opened.push(url);
    return {};
  };
  bridge.onsizechange = ({ height }) => {
    if (height) frame.style.height = `${height}px`;
  };
  bridge.oninitialized = async () => {
    try {
      const result = await rpc("tools/call", { name: tool, arguments: args });
      await bridge.sendToolInput({ arguments: args });
      await bridge.sendToolResult(result);
      host.ready = true;
    } catch (err) {
      host.error = String(err);
    }
  };
  host.setTheme = (theme) => bridge.setHostContext({ theme, platform: "web", displayMode: "inline" });
  await bridge.connect(new PostMessageTransport(frame.contentWindow, frame.contentWindow));
}

start().catch((err) => { host.error = String(err && err.stack || err); });

// A turn longer than the client's request timeout, through the official
// MCP TypeScript SDK: `chatcli mcp-server` sends notifications/progress
// while the turn runs, and a client that resets its timeout on progress
// (resetTimeoutOnProgress) gets the whole reply; one that does not times
// out, as every client did before chatcli sent progress.
//
// usage: node slow.mjs /path/to/chatcli TIMEOUT_MS [control]
//   TIMEOUT_MS is the client's request timeout (the SDK's default is
//   60000); with "control", a second turn without resetTimeoutOnProgress
//   must time out. OPENAI_BASE_URL etc. come from the environment: the
//   provider must answer slowly (the Go test's server).
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";

const [binary, timeoutArg, control] = process.argv.slice(2);
const timeout = Number(timeoutArg);
if (!binary || !(timeout > 0)) {
  console.error("usage: node slow.mjs /path/to/chatcli TIMEOUT_MS [control]");
  process.exit(2);
}

function check(cond, what, detail) {
  if (!cond) throw new Error(`check failed: ${what}${detail === undefined ? "" : `\n  got: ${JSON.stringify(detail)}`}`);
}

const transport = new StdioClientTransport({ command: binary, args: ["mcp-server"], env: { ...process.env }, stderr: "pipe" });
let stderr = "";
transport.stderr.on("data", (d) => (stderr += d));
const client = new Client({ name: "chatcli-slow-e2e", version: "1.0.0" });

async function main() {
  await client.connect(transport);
  let progressed = 0;
  const t0 = Date.now();
  const res = await client.callTool({ name: "chat", arguments: { prompt: "a long task" } }, undefined,
    { timeout, resetTimeoutOnProgress: true, onprogress: () => progressed++ });
  const took = Date.now() - t0;
  const reply = res.structuredContent?.reply;
  check(!res.isError && typeof reply === "string" && reply.endsWith("done."), "the long turn completes", res);
  check(took > timeout, "the turn outlasted the client's timeout", { took, timeout });
  check(progressed >= 2, "progress notifications kept it alive", progressed);
  console.log(`ok: a ${took} ms turn under a ${timeout} ms timeout, ${progressed} progress notifications`);
  if (control) {
    try {
      await client.callTool({ name: "chat", arguments: { prompt: "again without resetting" } }, undefined, { timeout });
      check(false, "without resetTimeoutOnProgress the turn times out");
    } catch (e) {
      check(e instanceof McpError && e.code === ErrorCode.RequestTimeout, "without resetTimeoutOnProgress: RequestTimeout", String(e));
    }
    console.log("ok: without resetting on progress the client times out");
  }
  await client.close();
  check(!stderr.includes("panic"), "no panic on stderr", stderr);
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err.message);
    console.error("server stderr:\n" + stderr);
    process.exit(1);
  },
);

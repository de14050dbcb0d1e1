// End-to-end check of `chatcli mcp-server` through the official MCP
// TypeScript SDK: start the server over stdio, list its tools, chat, run
// every manage_session action (list paged), progress of a chat, a cross-surface
// turn by `chatcli -p`,
// asserting each result. Exits 0 when every check passed, 1 otherwise.
//
// usage: node run.mjs /path/to/chatcli   (CHATCLI_HOME etc. from the environment)
import { execFileSync } from "node:child_process";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const binary = process.argv[2];
if (!binary) {
  console.error("usage: node run.mjs /path/to/chatcli");
  process.exit(2);
}

let checks = 0;
function check(cond, what, detail) {
  checks++;
  if (!cond) {
    throw new Error(`check failed: ${what}${detail === undefined ? "" : `\n  got: ${JSON.stringify(detail)}`}`);
  }
}

const text = (res) => res.content.filter((c) => c.type === "text").map((c) => c.text).join("");

const transport = new StdioClientTransport({
  command: binary,
  args: ["mcp-server"],
  env: { ...process.env },
  stderr: "pipe",
});
let stderr = "";
transport.stderr.on("data", (d) => (stderr += d));
const client = new Client({ name: "chatcli-e2e", version: "1.0.0" });

async function tool(name, args) {
  return client.callTool({ name, arguments: args });
}
async function ok(name, args) {
  const res = await tool(name, args);
  check(!res.isError, `${name} ${JSON.stringify(args)} succeeds`, text(res));
  check(res.structuredContent && typeof res.structuredContent === "object", `${name} has structured content`, res);
  return res;
}
async function fails(name, args, ...want) {
  const res = await tool(name, args);
  check(res.isError === true, `${name} ${JSON.stringify(args)} is a tool error`, text(res));
  for (const w of want) check(text(res).includes(w), `${name} error says ${w}`, text(res));
  return res;
}
const manage = (args) => ok("manage_session", args).then((r) => r.structuredContent);

async function main() {
  await client.connect(transport);
  // Every message the server sent, in the order it arrived: the SDK hands
  // a notification to its handler a microtask late, after a response read
  // in the same chunk has removed the request's progress handler, so
  // progress is checked on the wire.
  const wire = [];
  const deliver = transport.onmessage;
  transport.onmessage = (msg, extra) => { wire.push(msg); deliver(msg, extra); };
  // The process is needed to see how it ends; the SDK keeps it private.
  const child = transport._process;
  check(child && typeof child.once === "function", "the server process is reachable");
  const exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));

  check(client.getServerVersion()?.name === "chatcli", "server name", client.getServerVersion());

  // Tools and their typed schemas.
  const { tools } = await client.listTools();
  const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
  const names = tools.map((t) => t.name).sort();
  check(JSON.stringify(names) === '["agent_task","ask_chatcli","chat","coder_task","manage_session"]',
    "five tools: chat, manage_session and ChatCLI's ask_chatcli, agent_task, coder_task", names);
  check(JSON.stringify(byName.chat.inputSchema.required) === '["prompt"]', "chat requires prompt", byName.chat.inputSchema);
  const actions = byName.manage_session.inputSchema.properties.action.enum;
  const want = ["save", "load", "list", "delete", "new", "fork", "rename", "attach", "detach", "status", "clear", "export", "search"];
  check(JSON.stringify(actions) === JSON.stringify(want), "action enum", actions);
  check(JSON.stringify(byName.manage_session.inputSchema.properties.format.enum) === '["md","jsonl"]', "format enum");

  // chat, mirrored to mcp-<id>.
  let res = await ok("chat", { prompt: "hello from mcp" });
  let out = res.structuredContent;
  check(out.reply === "[offline] reply #1 to: hello from mcp" && text(res) === out.reply, "first reply", out);
  check(/^mcp-\d{8}-\d{6}-[0-9a-f]{4}$/.test(out.session) && out.bound === false && out.messages === 2, "mirror session", out);
  const mirror = out.session;

  let s = await manage({ action: "list" });
  check(s.sessions.length === 1 && s.sessions[0].name === mirror && s.sessions[0].messages === 2, "list shows the mirror", s);

  // save, status, write-through.
  await fails("manage_session", { action: "save", name: "mcp-mine" }, "reserved");
  s = await manage({ action: "save", name: "demo" });
  check(s.bound === "demo" && s.text.includes('Saved 2 messages as session "demo"'), "save", s);
  out = (await ok("chat", { prompt: "second question" })).structuredContent;
  check(out.session === "demo" && out.bound === true && out.messages === 4, "bound turn", out);
  s = await manage({ action: "status" });
  check(s.text.includes('Bound to session "demo" (4 messages)'), "status", s.text);

  // fork, rename, detach, attach.
  s = await manage({ action: "fork", name: "demo-fork" });
  check(s.bound === "demo-fork" && s.messages === 4, "fork", s);
  s = await manage({ action: "rename", name: "demo-fork", new_name: "renamed" });
  check(s.bound === "renamed" && s.text.includes('Renamed "demo-fork" to "renamed"'), "rename", s);
  s = await manage({ action: "detach" });
  check(s.bound === "" && s.messages === 4, "detach", s);
  s = await manage({ action: "attach", name: "demo" });
  check(s.bound === "demo" && s.messages === 4, "attach", s);

  // export and search.
  s = await manage({ action: "export", format: "md" });
  check(s.text.includes("hello from mcp") && s.text.includes("second question"), "export md", s.text);
  s = await manage({ action: "export", format: "jsonl", name: "renamed" });
  const lines = s.text.trim().split("\n").map((l) => JSON.parse(l));
  check(lines.length === 4 && lines[0].content === "hello from mcp", "export jsonl of another session", lines);
  s = await manage({ action: "search", query: "second question" });
  check(s.hits.length > 0 && s.hits.some((h) => h.source === "demo"), "search", s.hits);

  // delete needs yes; errors name the session.
  await fails("manage_session", { action: "delete", name: "renamed" }, "yes");
  s = await manage({ action: "delete", name: "renamed", yes: true });
  check(s.text.includes("moved to the trash"), "delete", s.text);
  await fails("manage_session", { action: "load", name: "missing" }, '"missing"');
  await fails("manage_session", { action: "attach", name: "../escape" }, "../escape");

  // new, load, clear.
  s = await manage({ action: "new" });
  check(s.bound === "" && s.messages === 0, "new", s);
  s = await manage({ action: "load", name: "demo" });
  check(s.bound === "demo" && s.messages === 4, "load", s);
  await manage({ action: "detach" });
  s = await manage({ action: "clear" });
  check(s.messages === 0 && s.mirror.startsWith(mirror + "-") && s.text.includes(s.mirror), "clear keeps a mirror", s);

  // Cross-surface: MCP turn on "shared", a `chatcli -p` turn, then MCP again.
  out = (await ok("chat", { prompt: "from mcp", session: "shared" })).structuredContent;
  check(out.session === "shared" && out.bound && out.messages === 2, "chat on a named session", out);
  const shown = JSON.parse(execFileSync(binary, ["session", "show", "shared", "--json"], { env: process.env }).toString());
  check(shown.chat_history.length === 2 && shown.chat_history[0].content === "from mcp", "session show sees the MCP turn", shown);
  execFileSync(binary, ["-p", "from the terminal", "--session", "shared"], { env: process.env });
  out = (await ok("chat", { prompt: "after the terminal", session: "shared" })).structuredContent;
  check(out.messages === 6 && out.reply === "[offline] reply #3 to: after the terminal", "the -p turn was adopted", out);

  // list is paged: one session a page, following next_cursor, gives every
  // session once, as the unpaged list does.
  const all = (await manage({ action: "list" })).sessions.map((x) => x.name);
  const paged = [];
  let page = await manage({ action: "list", limit: 1 });
  check(page.total === all.length && page.sessions.length === 1 && page.next_cursor, "first page of one", page);
  for (;;) {
    paged.push(...page.sessions.map((x) => x.name));
    if (!page.next_cursor) break;
    check(paged.length < all.length, "next_cursor only while sessions remain", page);
    page = await manage({ action: "list", limit: 1, cursor: page.next_cursor });
  }
  check(JSON.stringify(paged) === JSON.stringify(all) && all.length >= 3, "pages give every session once, in order", { paged, all });

  // A chat whose request carries a progress token gets progress
  // notifications (the client resets its timeout on each).
  const from = wire.length;
  const withProgress = await client.callTool({ name: "chat", arguments: { prompt: "with progress" } }, undefined,
    { onprogress: () => {}, resetTimeoutOnProgress: true });
  const sent = wire.slice(from);
  const progress = sent.findIndex((m) => m.method === "notifications/progress");
  const token = progress < 0 ? undefined : Number(sent[progress].params.progressToken);
  const answer = sent.findIndex((m) => m.id === token && m.result !== undefined);
  check(!withProgress.isError && progress >= 0 && answer > progress,
    "chat sends notifications/progress for its token before its result", { progress, answer, sent });

  // Exit on stdin EOF, cleanly and on its own (the SDK sends SIGTERM after 2 s).
  const t0 = Date.now();
  await client.close();
  const end = await exited;
  check(end.code === 0 && end.signal === null, "exit 0 on stdin EOF", end);
  check(Date.now() - t0 < 2000, "exit without a signal", Date.now() - t0);
  check(!stderr.includes("panic"), "no panic on stderr", stderr);
  console.log(`ok: ${checks} checks`);
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err.message);
    console.error("server stderr:\n" + stderr);
    process.exit(1);
  },
);

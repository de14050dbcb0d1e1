// session/new's cwd through the official ACP client (@agentclientprotocol/sdk):
// the thread works in that folder and the session it saves is recorded as
// used there. The Go test's scripted provider makes the "/agent" turn call
// list_dir "." and checks that the listing is the folder's.
//
// Usage: node cwd.mjs <path to chatcli> <workspace> <recorded form of it>
import { spawn } from "node:child_process";
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";

const [bin, ws, recorded] = process.argv.slice(2);
if (!bin || !ws || !recorded) {
  console.error("usage: node cwd.mjs <path to chatcli> <workspace> <recorded form of it>");
  process.exit(2);
}

function check(cond, what, got) {
  if (!cond) {
    console.error(`acpclient: MISMATCH: ${what}; got ${JSON.stringify(got)}`);
    process.exit(1);
  }
  console.error(`acpclient: ok: ${what}`);
}

const child = spawn(bin, ["acp"], { stdio: ["pipe", "pipe", "inherit"] });
const exited = new Promise((resolve) => child.on("exit", (code, signal) => resolve({ code, signal })));
const app = acp.client({ name: "chatcli-cwd-e2e" }).onNotification(acp.methods.client.session.update, () => {});
const stream = acp.ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout));
await app.connectWith(stream, async (cx) => {
  await cx.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
  try {
    await cx.request(acp.methods.agent.session.new, { cwd: "relative/dir", mcpServers: [] });
    check(false, "session/new with a relative cwd fails", "success");
  } catch (e) {
    check(String(e.message + JSON.stringify(e.data ?? "")).includes("relative/dir"), "a relative cwd is refused, named", e);
  }
  const { sessionId } = await cx.request(acp.methods.agent.session.new, { cwd: ws, mcpServers: [] });
  for (const text of ["/session save ws-thread", "/agent list the folder"]) {
    const r = await cx.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text }] });
    check(r.stopReason === "end_turn", `${text}: end_turn`, r);
  }
  const list = await cx.request(acp.methods.agent.session.list, {});
  const entry = list.sessions.find((s) => s.sessionId === "ws-thread");
  check(entry && entry.cwd === recorded, "session/list: ws-thread recorded in the thread's cwd", list.sessions);
});
child.stdin.end();
const { code, signal } = await exited;
check(code === 0, "chatcli acp exits 0 on stdin EOF", { code, signal });
console.log("acpclient: cwd checks passed");

// End-to-end ACP client for chatcli's tests. It spawns `<chatcli> acp`,
// drives it with the official ACP SDK (@agentclientprotocol/sdk, ACP v1) and
// exits non-zero on the first mismatch. It uses the SDK 2.x app API
// (client().connectWith, cx.request/notify), which replaced the 1.x
// ClientSideConnection class.
//
// Usage: node run.mjs <path to chatcli> [saved session name]
//
// The environment (CHATCLI_HOME, OPENAI_BASE_URL …) is passed to chatcli as
// it is. The provider must answer "echo: <prompt>" and stall after its first
// chunk for a prompt that starts with "slow" (the Go test's fake server).
import { spawn } from "node:child_process";
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";

const [bin, saved = "saved"] = process.argv.slice(2);
if (!bin) {
  console.error("usage: node run.mjs <path to chatcli> [saved session name]");
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

// Every line chatcli writes to stdout must be a JSON-RPC 2.0 message.
let raw = "";
child.stdout.on("data", (b) => (raw += b.toString("utf8")));

const updates = []; // every session/update, in arrival order
const waiters = [];
const app = acp.client({ name: "chatcli-e2e" }).onNotification(acp.methods.client.session.update, ({ params }) => {
  updates.push(params);
  for (const w of waiters.splice(0)) w();
});
const nextUpdate = () => new Promise((resolve) => waiters.push(resolve));
const take = (sessionId) => {
  const mine = updates.filter((u) => u.sessionId === sessionId);
  updates.length = 0;
  return mine;
};
const agentText = (us) =>
  us.filter((u) => u.update.sessionUpdate === "agent_message_chunk").map((u) => u.update.content.text);

const stream = acp.ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout));
await app.connectWith(stream, async (cx) => {
  const init = await cx.request(acp.methods.agent.initialize, {
    protocolVersion: acp.PROTOCOL_VERSION,
    clientCapabilities: {},
  });
  check(init.protocolVersion === 1, "initialize: protocol version 1", init.protocolVersion);
  check(init.agentCapabilities?.loadSession === true, "initialize: loadSession", init.agentCapabilities);
  await cx.request(acp.methods.agent.authenticate, { methodId: "none" });

  const { sessionId } = await cx.request(acp.methods.agent.session.new, { cwd: process.cwd(), mcpServers: [] });
  check(typeof sessionId === "string" && sessionId !== "", "session/new: a sessionId", sessionId);

  const r1 = await cx.request(acp.methods.agent.session.prompt, {
    sessionId,
    prompt: [{ type: "text", text: "hello" }],
  });
  const chunks = agentText(take(sessionId));
  check(r1.stopReason === "end_turn", "session/prompt: end_turn", r1);
  check(chunks.length >= 2 && chunks.join("") === "echo: hello", "session/prompt: streamed chunks", chunks);

  // Cancel during a prompt: the fake server stalls after its first chunk.
  const slow = cx.request(acp.methods.agent.session.prompt, {
    sessionId,
    prompt: [{ type: "text", text: "slow one" }],
  });
  while (agentText(updates.filter((u) => u.sessionId === sessionId)).length === 0) await nextUpdate();
  await cx.notify(acp.methods.agent.session.cancel, { sessionId });
  const r2 = await slow;
  check(r2.stopReason === "cancelled", "session/cancel: stopReason cancelled", r2);
  take(sessionId);

  const list = await cx.request(acp.methods.agent.session.list, {});
  const entry = list.sessions.find((s) => s.sessionId === saved);
  check(entry && entry.title && entry.updatedAt, `session/list: ${saved} with title and updatedAt`, list.sessions);

  await cx.request(acp.methods.agent.session.load, { sessionId: saved, cwd: process.cwd(), mcpServers: [] });
  const replay = take(saved).map((u) => `${u.update.sessionUpdate}:${u.update.content?.text}`);
  check(
    replay.join("|") === "user_message_chunk:hi|agent_message_chunk:echo: hi",
    `session/load: ${saved} replayed before the answer`,
    replay,
  );
  const r3 = await cx.request(acp.methods.agent.session.prompt, {
    sessionId: saved,
    prompt: [{ type: "text", text: "from acp" }],
  });
  check(r3.stopReason === "end_turn", "session/prompt on the loaded session", r3);
  check(agentText(take(saved)).join("") === "echo: from acp", "loaded session streams its reply", r3);

  try {
    await cx.request(acp.methods.agent.session.prompt, { sessionId: "no-such", prompt: [{ type: "text", text: "x" }] });
    check(false, "prompt on an unknown session fails", "success");
  } catch (e) {
    check(e.code === -32002 && String(e.data?.reason).includes("no-such"), "unknown session: JSON-RPC error with reason", e);
  }
});

child.stdin.end(); // EOF: chatcli exits
const { code, signal } = await exited;
check(code === 0, "chatcli acp exits 0 on stdin EOF", { code, signal });
const bad = raw.split("\n").filter((l) => l !== "").filter((l) => {
  try {
    return JSON.parse(l).jsonrpc !== "2.0";
  } catch {
    return true;
  }
});
check(bad.length === 0, "stdout holds JSON-RPC messages only", bad);
console.log("acpclient: all checks passed");

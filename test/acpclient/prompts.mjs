// Sends prompts to one new thread of `chatcli acp` through the official ACP
// client (@agentclientprotocol/sdk) and prints, for each prompt, one JSON
// line: {"prompt", "stopReason", "text"} (the agent_message_chunk text the
// prompt got, joined) or {"prompt", "error": {"code", "message"}}, with
// "permissions": the title and option names of each
// session/request_permission the prompt caused (each is rejected). The Go
// test checks the lines; this script only fails when the connection does.
//
// Usage: node prompts.mjs <path to chatcli> <prompt>...
// The thread's cwd is $ACPCLIENT_CWD, else this process's.
import { spawn } from "node:child_process";
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";

const [bin, ...prompts] = process.argv.slice(2);
if (!bin) {
  console.error("usage: node prompts.mjs <path to chatcli> <prompt>...");
  process.exit(2);
}

const child = spawn(bin, ["acp"], { stdio: ["pipe", "pipe", "inherit"] });
const exited = new Promise((resolve) => child.on("exit", (code, signal) => resolve({ code, signal })));

let text = [];
let permissions = [];
const app = acp
  .client({ name: "chatcli-prompts-e2e" })
  .onNotification(acp.methods.client.session.update, ({ params }) => {
    if (params.update.sessionUpdate === "agent_message_chunk") text.push(params.update.content.text);
  })
  .onRequest(acp.methods.client.session.requestPermission, ({ params }) => {
    permissions.push({ title: params.toolCall.title, options: params.options.map((o) => o.name) });
    return { outcome: { outcome: "selected", optionId: "reject_once" } };
  });
const stream = acp.ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout));
await app.connectWith(stream, async (cx) => {
  await cx.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
  const cwd = process.env.ACPCLIENT_CWD || process.cwd();
  const { sessionId } = await cx.request(acp.methods.agent.session.new, { cwd, mcpServers: [] });
  for (const prompt of prompts) {
    text = [];
    permissions = [];
    try {
      const r = await cx.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: prompt }] });
      console.log(JSON.stringify({ prompt, stopReason: r.stopReason, text: text.join(""), permissions }));
    } catch (e) {
      console.log(JSON.stringify({ prompt, text: text.join(""), permissions, error: { code: e.code, message: e.message } }));
    }
  }
});
child.stdin.end(); // EOF: chatcli exits
const { code, signal } = await exited;
if (code !== 0) {
  console.error(`acpclient: chatcli acp exited ${code ?? signal}`);
  process.exit(1);
}

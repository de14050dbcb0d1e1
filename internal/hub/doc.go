// Package hub is the Conversation Hub: a live, ephemeral relay between the
// surfaces that join one hub thread (REPLs with /hub join NAME or
// CHATCLI_HUB=NAME, chats of chatcli gateway with /hub join NAME). Each
// member's turns, a prompt and its reply, are shown to the other members
// as they end; nothing is stored but the last Backlog turns of a thread in
// memory, which a member joining later is shown first. The durable record
// stays the session (a bound session is written through by every
// surface); the hub only relays.
//
// A thread has an epoch. /session load and /session new in a member rotate
// it (Member.Rotate): the backlog is dropped and a turn that started in the
// older epoch is not relayed, so no backlog of the conversation left behind
// lands on the one loaded.
//
// chatcli gateway runs the Relay and serves it to other processes on the
// Unix socket SocketPath (mode 0600 in CHATCLI_HOME/gateway, 0700), one
// JSON object a line, at most MaxLine bytes. A client sends
//
//	{"op":"join","thread":"T","from":"terminal 4242"}
//	{"op":"turn","epoch":0,"prompt":"…","reply":"…"}
//	{"op":"rotate"}
//	{"op":"leave"}
//
// and is sent Event objects: {"kind":"joined","thread":"T","epoch":0,
// "backlog":[…]}, {"kind":"turn",…,"turn":{…}} and {"kind":"rotated",
// "epoch":1,"from":"…"} (to the member that rotated too).
package hub

// Package gateway connects chat platforms (Telegram, Slack, WhatsApp; one
// sub-package each) to the conversation engine: the same store, session
// locks, journal and binding rules as the REPL, `chatcli mcp-server` and
// `chatcli acp` (DESIGN.md §5).
//
// # Principals and conversations
//
// A principal is one person on one channel (Principal: channel name and the
// platform's user id). Each principal has its own conversation.Engine,
// created at its first message and used for one message at a time. While
// unbound, the conversation is mirrored after every turn to the
// machine-made session gw-<channel>-<user> (Mirror, like MCP's mcp-<id>),
// which expires under the retention rules; after /session new or detach the
// next conversation is mirrored under gw-<channel>-<user>-<time>-<hex>, so
// the previous one is never overwritten. A restarted gateway continues the
// principal's mirror (conversation.Engine.Resume) or its bound session.
//
// In the chat, "/session attach NAME", "detach", "status", "save NAME",
// "list" and "new" work as in the REPL (command.Dispatch); "/help" and
// Telegram's "/start" answer with the commands. Nothing else that starts
// with "/" is run: "/session delete" in particular is refused (deleting is
// a terminal's job). Any other text is one turn (conversation.Engine.Turn);
// a provider failure is answered in one line (command.ErrorLine), and the
// prompt stays in the conversation marked unanswered, as when the turn is
// cancelled by SIGTERM.
//
// # Who may talk
//
// Each channel has an allow-list (AllowList) of user ids and chat ids; an
// empty one answers nobody, and Config.Check says so (chatcli gateway prints
// its lines at start). A message from anyone
// not listed gets no reply and is logged once per principal.
//
// # The state file
//
// CHATCLI_HOME/gateway/state.json (mode 0600, folder 0700), replaced
// atomically (internal/atomicfile) after each change:
//
//	{
//	  "version": 1,
//	  "principals": {"telegram:42": {"bound": "projeto-x", "mirror": "gw-telegram-42"}},
//	  "offsets": {"telegram": 1234},
//	  "seen": {"slack": ["Ev01…", …], "whatsapp": ["wamid.…", …]}
//	}
//
// principals holds, per principal ("<channel>:<user>"), the session it is
// bound to ("" or absent when unbound) and the name of its current mirror.
// offsets holds the next Telegram update_id to ask for (getUpdates offset),
// written once a message's prompt is in the conversation, so a restart never
// delivers it twice; seen holds the newest SeenPerChannel event ids of the
// webhook channels, whose platforms redeliver an event they think was
// missed. A file that does not parse, or whose version is higher than
// StateVersion, is refused with an error naming it and never replaced.
//
// Tokens and secrets are never logged or put in errors: Redact removes
// them from the platform libraries' errors, which can hold request URLs.
package gateway

// Package telegram is the gateway's Telegram channel: the Bot API through
// github.com/go-telegram-bot-api/telegram-bot-api/v5, with long polling
// (getUpdates with a timeout; core.telegram.org/bots/api#getupdates).
//
// Each update's message (its text, or a photo's caption) goes to the
// gateway as one gateway.Message: principal telegram:<from.id>, replies to
// <chat.id>. Updates are served one at a time, in update_id order; once a
// message's prompt is in the conversation (answered, failed or cut short
// by SIGTERM) the next offset, update_id+1, is written to the gateway's
// state file before the next update, so a restarted daemon asks for the
// updates after it and never serves one twice (Telegram itself forgets an
// update only when a later getUpdates carries a higher offset).
//
// Replies are split at MessageLimit characters, sent with parse_mode HTML
// (markup.Telegram), and sent again as plain text when Telegram refuses
// the markup (400); a 429 is retried after the retry_after Telegram asks
// for. While a turn runs, sendChatAction "typing" is repeated. A failed
// getMe or getUpdates is retried with backoff (gateway.Backoff), except an
// unauthorized token (401), which ends Run with an error. The bot token is
// never logged: errors pass through gateway.Redact.
package telegram

// Package markup converts the Markdown a model writes (CommonMark with
// GitHub strikethrough, parsed by goldmark) into the markup of each chat
// platform: Telegram's HTML parse mode (core.telegram.org/bots/api,
// "HTML style": b, i, s, code, pre, a, blockquote; &, < and > escaped),
// Slack's mrkdwn (api.slack.com "Formatting text for app surfaces":
// *bold*, _italic_, ~strike~, `code`, ``` blocks, <url|text> links; &, <
// and > escaped) and WhatsApp's formatting (*bold*, _italic_, ~strike~,
// `code`, ``` blocks; links written out). Headings become bold lines,
// lists get bullets or numbers, and what a platform cannot show is kept as
// plain text, never dropped.
package markup

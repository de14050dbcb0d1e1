package markup

import (
	"html"
	"strings"
)

func wrap(open, close string) func(string) string {
	return func(s string) string {
		if s == "" {
			return ""
		}
		return open + s + close
	}
}

// ampLtGt escapes &, < and > as HTML entities: what Telegram's HTML mode
// and Slack's mrkdwn both require of literal text.
var ampLtGt = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace

// Telegram is the Bot API's HTML parse mode (parse_mode "HTML").
var Telegram = Dialect{
	Escape: ampLtGt,
	Bold:   wrap("<b>", "</b>"), Italic: wrap("<i>", "</i>"), Strike: wrap("<s>", "</s>"), Code: wrap("<code>", "</code>"),
	Pre: func(lang, code string) string {
		if lang == "" {
			return "<pre>" + code + "</pre>"
		}
		return `<pre><code class="language-` + html.EscapeString(lang) + `">` + code + "</code></pre>"
	},
	Link: func(label, url string) string {
		if url == "" {
			return label
		}
		return `<a href="` + html.EscapeString(url) + `">` + label + "</a>"
	},
	Quote:  wrap("<blockquote>", "</blockquote>"),
	Bullet: "• ",
}

// Slack is Slack's mrkdwn (text objects of type "mrkdwn", and the text of
// chat.postMessage).
var Slack = Dialect{
	Escape: ampLtGt,
	Bold:   wrap("*", "*"), Italic: wrap("_", "_"), Strike: wrap("~", "~"), Code: wrap("`", "`"),
	Pre: func(_, code string) string { return "```\n" + code + "\n```" },
	Link: func(label, url string) string {
		switch {
		case url == "":
			return label
		case label == "" || label == ampLtGt(url):
			return "<" + url + ">"
		}
		return "<" + url + "|" + strings.ReplaceAll(label, "|", "¦") + ">"
	},
	Quote:  quoteLines,
	Bullet: "• ",
}

// WhatsApp is WhatsApp's message formatting; text needs no escaping.
var WhatsApp = Dialect{
	Escape: func(s string) string { return s },
	Bold:   wrap("*", "*"), Italic: wrap("_", "_"), Strike: wrap("~", "~"), Code: wrap("`", "`"),
	Pre: func(_, code string) string { return "```" + code + "```" },
	Link: func(label, url string) string {
		switch {
		case url == "":
			return label
		case label == "" || label == url:
			return url
		}
		return label + " (" + url + ")"
	},
	Quote:  quoteLines,
	Bullet: "- ",
}

// quoteLines puts "> " before every line of body.
func quoteLines(body string) string { return "> " + strings.ReplaceAll(body, "\n", "\n> ") }

package markup

import "testing"

const sample = "# Title\n\nSome **bold**, _it_, ~~gone~~ and `a<b` & [docs](https://x.test/?a=1&b=2).\n\n" +
	"- one\n- two\n\n1. first\n2. second\n\n> quoted\n\n```go\nif a < b && c {\n}\n```"

func TestConvert(t *testing.T) {
	for _, tc := range []struct {
		name string
		d    Dialect
		want string
	}{
		{"telegram", Telegram, "<b>Title</b>\n\nSome <b>bold</b>, <i>it</i>, <s>gone</s> and <code>a&lt;b</code> &amp; " +
			`<a href="https://x.test/?a=1&amp;b=2">docs</a>.` + "\n\n• one\n• two\n\n1. first\n2. second\n\n<blockquote>quoted</blockquote>\n\n" +
			`<pre><code class="language-go">if a &lt; b &amp;&amp; c {` + "\n}</code></pre>"},
		{"slack", Slack, "*Title*\n\nSome *bold*, _it_, ~gone~ and `a&lt;b` &amp; <https://x.test/?a=1&b=2|docs>.\n\n" +
			"• one\n• two\n\n1. first\n2. second\n\n> quoted\n\n```\nif a &lt; b &amp;&amp; c {\n}\n```"},
		{"whatsapp", WhatsApp, "*Title*\n\nSome *bold*, _it_, ~gone~ and `a<b` & docs (https://x.test/?a=1&b=2).\n\n" +
			"- one\n- two\n\n1. first\n2. second\n\n> quoted\n\n```if a < b && c {\n}```"},
	} {
		if got := Convert(sample, tc.d); got != tc.want {
			t.Errorf("%s:\n%s\nwant\n%s", tc.name, got, tc.want)
		}
	}
}

func TestConvertKeepsWhatItCannotShow(t *testing.T) {
	got := Convert("<div>raw & html</div>\n\nline one\nline two  \nthree", Telegram)
	want := "&lt;div&gt;raw &amp; html&lt;/div&gt;\n\nline one\nline two\nthree"
	if got != want {
		t.Errorf("%q\nwant %q", got, want)
	}
}

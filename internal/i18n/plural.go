package i18n

import (
	"fmt"
	"strings"
	"sync"

	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
	"golang.org/x/text/message/catalog"
)

// A message that counts something is keyed by its English text counting
// in the plural ("Loaded session %q (%d messages).\n"). Where its words
// change with a count, its text in a language writes both forms as a
// choice, {one|other}: "%d {message|messages}", "%[2]d {membro|membros}",
// "{a|as} %[1]d {mensagem|mensagens}". A choice follows the count (a %d)
// nearest before it, or, with none before it, the first after it, unless
// it names its count's argument ({[2]dela|delas}); it holds no verbs,
// and a message may count several things, each choice following its own
// count ("%d session {file|files}, %d {journal|journals}").
// The English texts with choices are englishCounts (counts.go); a
// Portuguese text of the catalog has its choices in place.
//
// golang.org/x/text says them: each choice is a catalog.Var whose value
// is a plural.Selectf on its count, and the text a catalog.String naming
// those variables (${c0}), set in a catalog.Builder of the message's
// language, so the rule that picks a form is CLDR's (plurals.xml, the
// table of golang.org/x/text/feature/plural): English "one" is exactly 1
// ("1 message", "0 messages"); Portuguese, pt being Brazilian Portuguese
// in CLDR, "one" is i = 0..1, an integer 0 or 1 ("1 mensagem",
// "2 mensagens"); pt_PT, which chatcli does not speak, is 1 only. Zero is
// said in the plural in both languages, as Brazilian grammars and
// interfaces say it ("0 mensagens", not CLDR's "0 mensagem"): an explicit
// =0 case picks the other form before the rule is asked. The texts are set with explicit argument indexes (%[1]d), as a
// message.Printer formats each selected form with all the arguments.
// English integers are plainInts there, written as package fmt writes
// them, ungrouped. message and its plural tables were linked already;
// building the catalogs costs the binary about 60 KB.

// countedText is a text with choices compiled for a catalog.Builder.
type countedText struct {
	vars []catalog.Message // a catalog.Var for each choice, c0, c1, …
	text string            // the text, its choices ${c0}, ${c1}, …
	key  string            // the text with each choice's other form
}

// hasChoice reports whether s holds a choice ({one|other}: one "|"
// between braces, no verb).
func hasChoice(s string) bool {
	for {
		i := strings.IndexByte(s, '{')
		if i < 0 {
			return false
		}
		s = s[i+1:]
		end := strings.IndexByte(s, '}')
		if end < 0 {
			return false
		}
		if in := s[:end]; strings.Count(in, "|") == 1 && !strings.ContainsAny(in, "{%") {
			return true
		}
	}
}

// compileCounted compiles s, a text with choices.
func compileCounted(s string) (countedText, error) {
	var out, key strings.Builder
	var choices [][2]string // one, other
	var before []int        // each choice's count before it, 0 for none
	var after []int         // the choices waiting for a count after them
	count, next := 0, 1     // the last count seen; the next implicit argument
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '%':
			verb, arg, n, err := scanVerb(s[i:], next)
			if err != nil {
				return countedText{}, fmt.Errorf("%q: %v", s, err)
			}
			out.WriteString(verb)
			key.WriteString(s[i : i+n])
			i += n - 1
			if arg > 0 {
				next = arg + 1
				if verb[len(verb)-1] == 'd' {
					count = arg
					for _, c := range after {
						before[c] = arg
					}
					after = after[:0]
				}
			}
		case c == '{':
			end := strings.IndexByte(s[i:], '}')
			one, other, ok := strings.Cut(s[i+1:i+max(end, 0)], "|")
			if end < 0 || !ok || strings.ContainsAny(one+other, "{%|") {
				return countedText{}, fmt.Errorf("%q: a choice is {one|other}, without verbs", s)
			}
			arg := count
			if n, err := fmt.Sscanf(one, "[%d]", &arg); n == 1 && err == nil {
				one = one[strings.IndexByte(one, ']')+1:] // {[2]one|other}
			} else if count == 0 {
				after = append(after, len(choices))
			}
			fmt.Fprintf(&out, "${c%d}", len(choices))
			key.WriteString(other)
			choices = append(choices, [2]string{one, other})
			before = append(before, arg)
			i += end
		default:
			out.WriteByte(c)
			key.WriteByte(c)
		}
	}
	if len(after) > 0 || len(choices) == 0 {
		return countedText{}, fmt.Errorf("%q: a choice without a count, or no choice", s)
	}
	t := countedText{text: out.String(), key: key.String()}
	for i, c := range choices {
		t.vars = append(t.vars, catalog.Var(fmt.Sprintf("c%d", i),
			plural.Selectf(before[i], "%d", "=0", c[1], plural.One, c[0], plural.Other, c[1])))
	}
	return t, nil
}

// scanVerb reads the fmt verb at the start of s, whose argument is next
// unless it names one (%[2]d), and returns it with its argument index
// explicit, that argument (0 for %%), and its length in s. %w becomes %v:
// a message.Printer does not wrap errors.
func scanVerb(s string, next int) (verb string, arg, n int, err error) {
	if strings.HasPrefix(s, "%%") {
		return "%%", 0, 2, nil
	}
	i := 1
	for i < len(s) && strings.IndexByte("+-# 0", s[i]) >= 0 {
		i++
	}
	flags, arg := s[1:i], next
	if i < len(s) && s[i] == '[' {
		end := strings.IndexByte(s[i:], ']')
		if end < 0 {
			return "", 0, 0, fmt.Errorf("bad argument index")
		}
		if _, err := fmt.Sscanf(s[i+1:i+end], "%d", &arg); err != nil {
			return "", 0, 0, fmt.Errorf("bad argument index")
		}
		i += end + 1
	}
	start := i
	for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '.') {
		i++
	}
	if i == len(s) || s[i] == '*' || s[i] == '[' {
		return "", 0, 0, fmt.Errorf("a verb chatcli does not count with")
	}
	v := s[i]
	if v == 'w' {
		v = 'v'
	}
	return fmt.Sprintf("%%%s%s[%d]%c", flags, s[start:i], arg, v), arg, i + 1, nil
}

// counted is the catalog of the counted messages of one language.
type counted struct {
	keys    map[string]bool
	printer *message.Printer
}

// buildCounted compiles texts, the counted texts of tag, each keyed by
// keyOf (its own other forms when keyOf is nil).
func buildCounted(tag language.Tag, texts []string, keyOf func(int) string) counted {
	b := catalog.NewBuilder()
	c := counted{keys: make(map[string]bool, len(texts))}
	for i, s := range texts {
		t, err := compileCounted(s)
		if err != nil {
			continue // TestCountedTextsCompile names it
		}
		key := t.key
		if keyOf != nil {
			key = keyOf(i)
		}
		if b.Set(tag, key, append(t.vars, catalog.String(t.text))...) == nil {
			c.keys[key] = true
		}
	}
	c.printer = message.NewPrinter(tag, message.Catalog(b))
	return c
}

// englishCounted is the catalog of englishCounts.
var englishCounted = sync.OnceValue(func() counted {
	return buildCounted(English, englishCounts, nil)
})

// portugueseCounted is the catalog of the Portuguese texts with choices.
var portugueseCounted = sync.OnceValue(func() counted {
	var keys, texts []string
	for key, pt := range ptFormats() {
		if hasChoice(pt) {
			keys, texts = append(keys, key), append(texts, pt)
		}
	}
	return buildCounted(Portuguese, texts, func(i int) string { return keys[i] })
})

// english is the English text of key with args: fmt's, or, for a counted
// message, its forms for the counts of args.
func english(key string, args []any) string {
	if c := englishCounted(); c.keys[key] {
		return c.printer.Sprintf(key, plainInts(args)...)
	}
	return fmt.Sprintf(key, args...)
}

// PluralForm implements plural.Interface: n is an integer, counted by the
// CLDR rule of t.
func (n plainInt) PluralForm(t language.Tag, _ int) (plural.Form, int) {
	i := int(n)
	if i < 0 {
		i = -i
	}
	return plural.Cardinal.MatchPlural(t, i, 0, 0, 0, 0), i
}

package i18n

import (
	"errors"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestEveryTextFormatsInBothLanguages formats every text of the catalog
// (catalogue, textMessages, jsonWords) in English and in Portuguese, as
// chatcli formats it (a Printer's Sprintf, an Errorf said by Error), with
// arguments of the types its English takes (argsFor, an error for %w)
// and every count 0, 1 and 2: no verb may meet a wrong type or a missing
// argument (%!), and no choice may stay unresolved.
func TestEveryTextFormatsInBothLanguages(t *testing.T) {
	en, pt := New(English), New(Portuguese)
	verb := regexp.MustCompile(`%(?:\[(\d+)\])?[-+# 0]*[0-9.]*([a-z])`)
	check := func(key string, n int, outs ...string) {
		for _, out := range outs {
			if strings.Contains(out, "%!") || strings.Contains(out, "${") || hasChoice(out) {
				t.Errorf("%q at %d: %q", key, n, out)
			}
		}
	}
	for _, m := range append(catalogue(), textMessages()...) {
		base := argsFor(m.en)
		pos := 0
		for _, v := range verb.FindAllStringSubmatch(m.en, -1) {
			if v[1] != "" {
				pos, _ = strconv.Atoi(v[1])
			} else {
				pos++
			}
			if v[2] == "w" && pos <= len(base) {
				base[pos-1] = errors.New("cause")
			}
		}
		for _, n := range []int{0, 1, 2} {
			args := append([]any(nil), base...)
			for i, a := range args {
				if _, ok := a.(int); ok {
					args[i] = n
				}
			}
			if !isErrorKey[m.en] {
				check(m.en, n, en.Sprintf(m.en, args...), pt.Sprintf(m.en, args...), pt.Plain().Sprintf(m.en, args...))
				continue
			}
			err := Errorf(m.en, args...)
			check(m.en, n, err.Error(), pt.Error(err, nil), pt.Plain().Error(err, nil))
			if !strings.Contains(m.en, "%w") {
				check(m.en, n, Textf(m.en, args...).String(), pt.Text(Textf(m.en, args...)))
			}
		}
	}
	for _, m := range jsonWords {
		for _, n := range []int{0, 1, 2} {
			args := argsFor(m.en)
			for i, a := range args {
				if _, ok := a.(int); ok {
					args[i] = n
				}
			}
			check(m.en, n, en.say(jsonWords, m.en, args...), pt.say(jsonWords, m.en, args...))
		}
	}
}

package session

import "testing"

func TestLookAlikeMarksMixedScriptAndFullwidthNames(t *testing.T) {
	for name, want := range map[string]string{
		"demo": "", "documentação-site": "", "日本語": "", "メモ-日本語": "", "notes-日本語": "", "한국어-메모": "",
		"москва": "", "नमस्ते": "", "v1.2_x": "",
		"dеmo":   LookAlikeMixedScript, // Cyrillic е
		"аpple":  LookAlikeMixedScript, // Cyrillic а
		"ｄｅｍｏ":   LookAlikeFullwidth,
		"demo１":  LookAlikeFullwidth,
		"αlpha":  LookAlikeMixedScript, // Greek α
		"한국어-日本": "",
	} {
		if got := LookAlike(name); got != want {
			t.Errorf("LookAlike(%q) = %q, want %q", name, got, want)
		}
	}
}

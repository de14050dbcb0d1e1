package main

import (
	"testing"

	"github.com/chatcli/chatcli/internal/i18n"
)

// Every form of the journal reader's reasons is said in Portuguese, and
// each stays as it is in English.
func TestReasonInSaysEveryForm(t *testing.T) {
	pt := i18n.New(i18n.Portuguese)
	for en, want := range map[string]string{
		"empty line":                                             "linha vazia",
		"NUL bytes inside the line":                              "bytes NUL dentro da linha",
		"sealed line, and no key to open it":                     "linha selada, e nenhuma chave para abri-la",
		"4096 NUL bytes":                                         "4096 bytes NUL",
		"3 NUL bytes before a record":                            "3 bytes NUL antes de um registro",
		"torn last line, 12 bytes without a newline":             "última linha cortada, 12 bytes sem quebra de linha",
		"checksum mismatch (stored 5b1a01df, computed 1def5902)": "checksum não confere (gravado 5b1a01df, calculado 1def5902)",
		"3 NUL bytes before a record, then checksum mismatch (stored 5b1a01df, computed 1def5902)": "3 bytes NUL antes de um registro, depois checksum não confere (gravado 5b1a01df, calculado 1def5902)",
		"sealed line does not open: seal: wrong key or tampered data":                              "a linha selada não abre: chave errada ou dados adulterados",
		`journal: corrupt record: unknown record type "x"`:                                         `registro do journal corrompido: unknown record type "x"`,
	} {
		if got := reasonIn(pt, en); got != want {
			t.Errorf("%q: %q, want %q", en, got, want)
		}
		if got := reasonIn(nil, en); got != en {
			t.Errorf("%q in English: %q", en, got)
		}
	}
}

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chatcli/chatcli/internal/i18n"
	"github.com/chatcli/chatcli/internal/journal"
	"github.com/chatcli/chatcli/internal/seal"
)

// The reasons of a journal's damaged lines are said in Portuguese, the
// kinds of error and encoding/json's words included, with the numbers
// written as in the file; in English each is the JSON report's reason.
func TestReasonInSaysTheJournalsReasons(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j.jsonl")
	data := "\n" + strings.Repeat("\x00", 4096) + "\n" + `{"type":"x","at":"2026-11-30T08:00:00Z"}` + "\n" + `{"type":5}` + "\ngarbage\n" + `{"type":"mess`
	if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
	res, err := journal.Verify(path, seal.Key{})
	if err != nil {
		t.Fatal(err)
	}
	want := []struct{ en, pt string }{
		{"empty line", "linha vazia"},
		{"4096 NUL bytes", "4096 bytes NUL"},
		{`journal: corrupt record: unknown record type "x"`, `registro do journal corrompido: tipo de registro desconhecido "x"`},
		{"journal: corrupt record: json: cannot unmarshal number into Go struct field wireRecord.Record.type of type string",
			"registro do journal corrompido: json: não dá para ler um número no campo Go wireRecord.Record.type, do tipo string"},
		{"journal: corrupt record: invalid character 'g' looking for beginning of value",
			"registro do journal corrompido: JSON inválido no byte 1: caractere inesperado 'g'"},
		{"torn last line, 13 bytes without a newline", "última linha cortada, 13 bytes sem quebra de linha"},
	}
	if len(res.Warnings) != len(want) {
		t.Fatalf("warnings: %v", res.Warnings)
	}
	pt := i18n.New(i18n.Portuguese)
	for i, w := range res.Warnings {
		l := damagedLine(w)
		if l.Reason != want[i].en || l.reasonIn(nil) != want[i].en || l.reasonIn(i18n.New(i18n.English)) != want[i].en {
			t.Errorf("line %d in English: %q, want %q", w.Line, l.Reason, want[i].en)
		}
		if got := l.reasonIn(pt); got != want[i].pt {
			t.Errorf("line %d in Portuguese: %q, want %q", w.Line, got, want[i].pt)
		}
	}
}

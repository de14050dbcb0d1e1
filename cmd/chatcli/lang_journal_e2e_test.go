package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// damagedStore makes a store whose journal ends in a record of an
// unknown type, a line of another type's JSON, a line that is not JSON
// and a torn last line, and whose session file t1 holds a title of the
// wrong JSON type. It returns the store and the journal's path.
func damagedStore(t *testing.T) (string, string) {
	t.Helper()
	home := t.TempDir()
	if _, errOut, code := run(t, []string{"CHATCLI_HOME=" + home}, "", "-p", "hi", "--name", "s1"); code != 0 {
		t.Fatalf("-p: exit %d\n%s", code, errOut)
	}
	journals, _ := filepath.Glob(filepath.Join(home, "transcripts", "*.jsonl"))
	if len(journals) != 1 {
		t.Fatalf("journals: %v", journals)
	}
	f, err := os.OpenFile(journals[0], os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"type":"x","at":"2026-11-30T08:00:00Z"}` + "\n" + `{"type":5}` + "\ngarbage\n" + `{"type":"msg`)
	f.Close()
	if err := os.WriteFile(filepath.Join(home, "sessions", "t1.json"), []byte(`{"version":2,"title":5,"chat_history":[]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	return home, journals[0]
}

// TestJournalReasonsSpeakPortuguese: under CHATCLI_LANG=pt-BR, storage
// verify, the notes of a session's load and the warnings of its export
// say why each damaged journal line is damaged in Portuguese, the
// record's type and encoding/json's errors included, and session show
// says a session file's JSON type error in Portuguese, with no English
// left in any; the exit codes are English's.
func TestJournalReasonsSpeakPortuguese(t *testing.T) {
	home, j := damagedStore(t)
	env := []string{"CHATCLI_HOME=" + home, "CHATCLI_LANG=pt-BR"}
	out, errOut, code := run(t, env, "", "storage", "verify")
	if code != exitDamaged {
		t.Errorf("verify: exit %d, want %d\n%s", code, exitDamaged, errOut)
	}
	for _, w := range []string{
		j + `:3: registro do journal corrompido: tipo de registro desconhecido "x"` + "\n",
		j + ":4: registro do journal corrompido: json: não dá para ler um número no campo Go wireRecord.Record.type, do tipo string\n",
		j + ":5: registro do journal corrompido: JSON inválido no byte 1: caractere inesperado 'g'\n",
		j + ":6: última linha cortada, 12 bytes sem quebra de linha\n",
		"t1.json: não é um documento de sessão: campo \"title\": json: não dá para ler um número num valor Go do tipo string; tire-o do lugar",
	} {
		if !strings.Contains(out, w) {
			t.Errorf("verify: %q missing from:\n%s", w, out)
		}
	}
	_, showErr, code := run(t, env, "", "session", "show", "t1")
	if code != exitData {
		t.Errorf("session show: exit %d, want %d\n%s", code, exitData, showErr)
	}
	if w := "chatcli: arquivo de sessão ilegível: " + filepath.Join(home, "sessions", "t1.json") +
		": não é um documento de sessão: campo \"title\": json: não dá para ler um número num valor Go do tipo string; tire-o do lugar"; !strings.Contains(showErr, w) {
		t.Errorf("session show: %q missing from:\n%s", w, showErr)
	}
	// Loading the session reports the lines after its journal position.
	_, notes, code := run(t, env, "", "-p", "again", "--session", "s1")
	if code != 0 {
		t.Errorf("-p --session: exit %d\n%s", code, notes)
	}
	for _, w := range []string{
		"nota: journal: " + j + `:3: linha danificada pulada (registro do journal corrompido: tipo de registro desconhecido "x")` + "\n",
		"nota: journal: " + j + ":5: linha danificada pulada (registro do journal corrompido: JSON inválido no byte 1: caractere inesperado 'g')\n",
		"nota: journal: " + j + ":6: linha danificada pulada (última linha cortada, 12 bytes sem quebra de linha)\n",
	} {
		if !strings.Contains(notes, w) {
			t.Errorf("-p --session: %q missing from:\n%s", w, notes)
		}
	}
	// An export of its transcript warns of the same lines.
	_, warnings, _ := run(t, env, "", "session", "export", "s1", "md", "-")
	if w := "aviso: " + j + `:3: linha danificada pulada (registro do journal corrompido: tipo de registro desconhecido "x")` + "\n"; !strings.Contains(warnings, w) {
		t.Errorf("session export: %q missing from:\n%s", w, warnings)
	}
	for _, en := range []string{"corrupt record", "unknown record", "invalid character", "looking for", "torn last line", "without a newline",
		"cannot unmarshal", "into Go", "of type", "not a session document", "unreadable file", "move it aside", "skipped a damaged line"} {
		if all := out + showErr + notes + warnings; strings.Contains(all, en) {
			t.Errorf("%q left in English:\n%s", en, all)
		}
	}
}

// TestJournalReasonsInEnglish pins storage verify's English report, its
// --json reasons, session show's error and the notes of a session's load
// for the same store: the words of the journal reader and of
// encoding/json, as they always were.
func TestJournalReasonsInEnglish(t *testing.T) {
	home, j := damagedStore(t)
	t1 := filepath.Join(home, "sessions", "t1.json")
	for _, lang := range []string{"en", "pt-BR"} {
		env := []string{"CHATCLI_HOME=" + home, "CHATCLI_LANG=" + lang}
		js, _, _ := run(t, env, "", "storage", "verify", "--json")
		for _, w := range []string{
			`"reason": "journal: corrupt record: unknown record type \"x\""`,
			`"reason": "journal: corrupt record: json: cannot unmarshal number into Go struct field wireRecord.Record.type of type string"`,
			`"reason": "journal: corrupt record: invalid character 'g' looking for beginning of value"`,
			`"reason": "torn last line, 12 bytes without a newline"`,
			`"error": "session: unreadable file: ` + t1 + `: not a session document: field \"title\": json: cannot unmarshal number into Go value of type string; move it aside`,
		} {
			if !strings.Contains(js, w) {
				t.Errorf("%s: --json: %q missing from:\n%s", lang, w, js)
			}
		}
	}
	env := []string{"CHATCLI_HOME=" + home, "CHATCLI_LANG=en"}
	out, errOut, code := run(t, env, "", "storage", "verify")
	want := "Checked 2 session files, 0 trashed sessions and 1 journal.\n" +
		"damaged: session: unreadable file: " + t1 + ": not a session document: field \"title\": json: cannot unmarshal number into Go value of type string; move it aside, then `chatcli session restore t1` brings back a copy from the trash if there is one\n" +
		"damaged: " + j + ": 4 damaged lines of 6\n" +
		"  " + j + `:3: journal: corrupt record: unknown record type "x"` + "\n" +
		"  " + j + ":4: journal: corrupt record: json: cannot unmarshal number into Go struct field wireRecord.Record.type of type string\n" +
		"  " + j + ":5: journal: corrupt record: invalid character 'g' looking for beginning of value\n" +
		"  " + j + ":6: torn last line, 12 bytes without a newline\n" +
		"2 damaged, 0 repaired, 0 not checked.\n" +
		"`chatcli storage verify --repair` sets each damaged journal aside as <id>.jsonl.broken and rewrites it clean.\n"
	if code != exitDamaged || out != want || errOut != "chatcli: storage verify: damage found: 2 damaged files, each listed above\n" {
		t.Errorf("verify: exit %d\n%s\nwant:\n%s\nstderr: %s", code, out, want, errOut)
	}
	_, showErr, _ := run(t, env, "", "session", "show", "t1")
	if w := "chatcli: session: unreadable file: " + t1 + ": not a session document: field \"title\": json: cannot unmarshal number into Go value of type string; move it aside, then `chatcli session restore t1` brings back a copy from the trash if there is one\n"; showErr != w {
		t.Errorf("session show: %q, want %q", showErr, w)
	}
	_, notes, _ := run(t, env, "", "-p", "again", "--session", "s1")
	if w := "note: journal: " + j + `:3: skipped a damaged line (journal: corrupt record: unknown record type "x")` + "\n" +
		"note: journal: " + j + ":4: skipped a damaged line (journal: corrupt record: json: cannot unmarshal number into Go struct field wireRecord.Record.type of type string)\n" +
		"note: journal: " + j + ":5: skipped a damaged line (journal: corrupt record: invalid character 'g' looking for beginning of value)\n" +
		"note: journal: " + j + ":6: skipped a damaged line (torn last line, 12 bytes without a newline)\n"; !strings.Contains(notes, w) {
		t.Errorf("-p --session: %q missing from:\n%s", w, notes)
	}
}

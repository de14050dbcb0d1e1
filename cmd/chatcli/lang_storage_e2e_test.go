package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestJSONSyntaxErrorsSpeakPortuguese: the syntax errors of chatcli's JSON
// reader, inside the error of a session file that cannot be read, are
// Portuguese under CHATCLI_LANG=pt-BR and as before in English, with the
// same exit code (4, unreadable) in both.
func TestJSONSyntaxErrorsSpeakPortuguese(t *testing.T) {
	home := t.TempDir()
	dir := filepath.Join(home, "sessions")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]string{"garbage": "garbage", "cut": `{"version":2,"chat_history":[1,}`} {
		if err := os.WriteFile(filepath.Join(dir, name+".json"), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for lang, want := range map[string][]string{
		"pt-BR": {"garbage.json: JSON inválido: esperava um objeto no byte 0; tire-o do lugar",
			"cut.json: JSON inválido: esperava um valor no byte 31; tire-o do lugar"},
		"en": {"garbage.json: invalid JSON: want an object at byte 0; move it aside",
			"cut.json: invalid JSON: want a value at byte 31; move it aside"},
	} {
		for i, name := range []string{"garbage", "cut"} {
			_, errOut, code := run(t, []string{"CHATCLI_HOME=" + home, "CHATCLI_LANG=" + lang}, "", "session", "show", name)
			if code != exitData || !strings.Contains(errOut, want[i]) {
				t.Errorf("%s %s: exit %d, want %d and %q:\n%s", lang, name, code, exitData, want[i], errOut)
			}
		}
	}
}

// TestKeyStateAndJSONFlagsSpeakPortuguese: what /config session says of
// CHATCLI_ENCRYPTION_KEY (unset, a key, a passphrase) and the --json flag
// lines of storage verify, rekey and decrypt are Portuguese under
// CHATCLI_LANG=pt-BR and as before in English.
func TestKeyStateAndJSONFlagsSpeakPortuguese(t *testing.T) {
	for lang, want := range map[string][]string{
		"pt-BR": {"não definido (os arquivos ficam em texto puro)", "definido (sessões e journals são selados)",
			"definido, uma frase-senha (Argon2id, sal em key-salt.json; sessões e journals são selados)",
			"--json     imprime {sound, sessions,", "--json   imprime {rekeyed, unchanged,", "--json   imprime {rekeyed (arquivos descriptografados),"},
		"en": {"not set (files are plaintext)", "set (sessions and journals are sealed)",
			"set, a passphrase (Argon2id, salt in key-salt.json; sessions and journals are sealed)",
			"--json     print {sound, sessions,", "--json   print {rekeyed, unchanged,", "--json   print {rekeyed (files decrypted),"},
	} {
		var all strings.Builder
		for _, key := range []string{"", strings.Repeat("K", 43) + "=", "a passphrase"} {
			env := []string{"CHATCLI_HOME=" + t.TempDir(), "CHATCLI_LANG=" + lang, "CHATCLI_ENCRYPTION_KEY=" + key}
			out, errOut, code := run(t, env, "/config session\n")
			if code != 0 {
				t.Fatalf("%s: exit %d\n%s", lang, code, errOut)
			}
			all.WriteString(out)
		}
		for _, verb := range []string{"verify", "rekey", "decrypt"} {
			out, _, _ := run(t, []string{"CHATCLI_HOME=" + t.TempDir(), "CHATCLI_LANG=" + lang}, "", "storage", verb, "--help")
			all.WriteString(out)
		}
		for _, w := range want {
			if !strings.Contains(all.String(), w) {
				t.Errorf("%s: %q missing from:\n%s", lang, w, all.String())
			}
		}
	}
}

// TestVerifyLinesSpeakPortuguese: storage verify's reasons for each
// damaged journal line, a damaged session file's error and the error
// kind it ends with are Portuguese under CHATCLI_LANG=pt-BR and as before
// in English, with the same exit codes (6, damage; 4, not checked);
// --json keeps its English reasons in both.
func TestVerifyLinesSpeakPortuguese(t *testing.T) {
	home := t.TempDir()
	env := []string{"CHATCLI_HOME=" + home}
	if _, errOut, code := run(t, env, "", "-p", "hi", "--name", "s1"); code != 0 {
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
	f.WriteString("\n\x00\x00\x00\n{\"type\":\"msg")
	f.Close()
	if err := os.WriteFile(filepath.Join(home, "sessions", "bad.json"), []byte("garbage"), 0o600); err != nil {
		t.Fatal(err)
	}
	sealed := t.TempDir()
	key := "CHATCLI_ENCRYPTION_KEY=" + strings.Repeat("K", 43) + "="
	if _, errOut, code := run(t, []string{"CHATCLI_HOME=" + sealed, key}, "", "-p", "hi", "--name", "s1"); code != 0 {
		t.Fatalf("-p sealed: exit %d\n%s", code, errOut)
	}
	for lang, want := range map[string][]string{
		"pt-BR": {": linha vazia\n", ": 3 bytes NUL\n", ": última linha cortada, 12 bytes sem quebra de linha",
			"danificado: arquivo de sessão ilegível: " + filepath.Join(home, "sessions", "bad.json") + ": JSON inválido: esperava um objeto no byte 0;",
			"chatcli: storage verify: há danos: 2 arquivos danificados, cada um listado acima\n",
			"chatcli: storage verify: 2 arquivos não puderam ser verificados, cada um listado acima\n",
			`s1.json: sessão "s1": criptografado; defina CHATCLI_ENCRYPTION_KEY`},
		"en": {": empty line\n", ": 3 NUL bytes\n", ": torn last line, 12 bytes without a newline",
			"damaged: session: unreadable file: " + filepath.Join(home, "sessions", "bad.json") + ": invalid JSON: want an object at byte 0;",
			"chatcli: storage verify: damage found: 2 damaged files, each listed above\n",
			"chatcli: storage verify: 2 files could not be checked, each listed above\n",
			`s1.json: session "s1" is encrypted; set CHATCLI_ENCRYPTION_KEY`},
	} {
		out, errOut, code := run(t, append(env, "CHATCLI_LANG="+lang), "", "storage", "verify")
		if code != exitDamaged {
			t.Errorf("%s: exit %d, want %d", lang, code, exitDamaged)
		}
		out2, errOut2, code := run(t, []string{"CHATCLI_HOME=" + sealed, "CHATCLI_LANG=" + lang}, "", "storage", "verify")
		if code != exitData {
			t.Errorf("%s: sealed: exit %d, want %d", lang, code, exitData)
		}
		all := out + errOut + out2 + errOut2
		for _, w := range want {
			if !strings.Contains(all, w) {
				t.Errorf("%s: %q missing from:\n%s", lang, w, all)
			}
		}
		js, _, _ := run(t, append(env, "CHATCLI_LANG="+lang), "", "storage", "verify", "--json")
		if !strings.Contains(js, `"reason": "empty line"`) || !strings.Contains(js, `"error": "session: unreadable file: `) {
			t.Errorf("%s: --json:\n%s", lang, js)
		}
	}
}

// TestWrongKeyErrorsSpeakPortuguese: a session and a journal that do not
// open with the key are said so in Portuguese under CHATCLI_LANG=pt-BR
// (storage verify, session show) and as before in English, exiting 4 in
// both.
func TestWrongKeyErrorsSpeakPortuguese(t *testing.T) {
	home := t.TempDir()
	if _, errOut, code := run(t, []string{"CHATCLI_HOME=" + home, "CHATCLI_ENCRYPTION_KEY=" + strings.Repeat("K", 43) + "="}, "", "-p", "hi", "--name", "s1"); code != 0 {
		t.Fatalf("-p: exit %d\n%s", code, errOut)
	}
	for lang, want := range map[string][]string{
		"pt-BR": {`sessão "s1": chave de criptografia errada ou arquivo danificado (`, "): chave errada ou dados adulterados; ele não foi alterado (só abre com a chave que o selou)",
			".jsonl: chave de criptografia errada ou arquivo danificado: chave errada ou dados adulterados; ele não foi alterado"},
		"en": {`session "s1": wrong encryption key or damaged file (`, "): seal: wrong key or tampered data; it was not changed (it opens only with the key that sealed it)",
			".jsonl: wrong encryption key or damaged file: seal: wrong key or tampered data; it was not changed"},
	} {
		env := []string{"CHATCLI_HOME=" + home, "CHATCLI_LANG=" + lang, "CHATCLI_ENCRYPTION_KEY=" + strings.Repeat("L", 43) + "="}
		var all strings.Builder
		for _, args := range [][]string{{"storage", "verify"}, {"session", "show", "s1"}} {
			out, errOut, code := run(t, env, "", args...)
			if code != exitData {
				t.Errorf("%s %v: exit %d, want %d", lang, args, code, exitData)
			}
			all.WriteString(out + errOut)
		}
		for _, w := range want {
			if !strings.Contains(all.String(), w) {
				t.Errorf("%s: %q missing from:\n%s", lang, w, all.String())
			}
		}
	}
}

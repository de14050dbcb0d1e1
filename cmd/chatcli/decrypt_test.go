package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chatcli/chatcli/internal/contexts"
	"github.com/chatcli/chatcli/internal/journal"
	"github.com/chatcli/chatcli/internal/memory"
	"github.com/chatcli/chatcli/internal/seal"
	"github.com/chatcli/chatcli/internal/session"
	"github.com/chatcli/chatcli/internal/shadow"
)

// allPlain reports whether every session, the trashed session and every
// journal under home is plaintext and opens without a key.
func allPlain(t *testing.T, home string, ids []string) bool {
	t.Helper()
	st, _ := session.Open(filepath.Join(home, "sessions"))
	for _, n := range []string{"plain", "a", "b"} {
		p, _ := st.Path(n)
		data, _ := os.ReadFile(p)
		if _, err := st.Load(n); err != nil || session.IsSealedFile(data) {
			return false
		}
	}
	if l, err := st.TrashList(); err != nil || len(l) != 1 || l[0].Err != nil {
		return false
	}
	for _, id := range ids {
		p := journal.Path(filepath.Join(home, "transcripts"), id)
		data, _ := os.ReadFile(p)
		if m, _, w, err := journal.Messages(p, seal.Key{}); err != nil || len(w) > 0 || len(m) != 2 || bytes.Contains(data, []byte("chatcli-sealed:")) {
			return false
		}
	}
	return true
}

// TestDecryptInterrupted stops the decryption after k files, for every k:
// each file then opens with the key or without one, and a second run
// finishes the job.
func TestDecryptInterrupted(t *testing.T) {
	keyS := b64Key(1)
	key := parsed(t, keyS)
	stop := errors.New("interrupted")
	defer func() { rekeyAfterFile = func(int) error { return nil } }()
	const files = 6
	for k := 1; k <= files; k++ {
		t.Run(fmt.Sprint(k), func(t *testing.T) {
			home := t.TempDir()
			ids := rekeyStore(t, home, key)
			env := map[string]string{"CHATCLI_ENCRYPTION_KEY": keyS}
			f, _, _ := rekeyFactory(home, env)
			rekeyAfterFile = func(done int) error {
				if done == k {
					return stop
				}
				return nil
			}
			if err := storageDecryptRun(&storageDecryptOptions{f: f, Yes: true}); !errors.Is(err, stop) {
				t.Fatalf("first run: %v", err)
			}
			checkEachOpens(t, home, ids, key, seal.Key{})
			rekeyAfterFile = func(int) error { return nil }
			f, out, errb := rekeyFactory(home, env)
			if err := storageDecryptRun(&storageDecryptOptions{f: f, Yes: true}); err != nil {
				t.Fatalf("rerun: %v\n%s", err, errb)
			}
			if !allPlain(t, home, ids) {
				t.Fatal("not every file is plaintext after the rerun")
			}
			if !strings.Contains(out.String(), "0 failed") || !strings.Contains(out.String(), "unset CHATCLI_ENCRYPTION_KEY") {
				t.Fatalf("summary %q", out)
			}
		})
	}
}

// Without a terminal, decrypt needs --yes; with the wrong key it fails
// naming the files and changes none.
func TestDecryptRefusals(t *testing.T) {
	home := t.TempDir()
	key := parsed(t, b64Key(1))
	ids := rekeyStore(t, home, key)
	before := snapshotFiles(t, home)
	f, _, _ := rekeyFactory(home, map[string]string{"CHATCLI_ENCRYPTION_KEY": b64Key(1)})
	if err := storageDecryptRun(&storageDecryptOptions{f: f}); !errors.Is(err, errFlags) || !strings.Contains(err.Error(), "--yes") {
		t.Fatalf("without --yes: %v", err)
	}
	f, _, errb := rekeyFactory(home, map[string]string{"CHATCLI_ENCRYPTION_KEY": b64Key(9)})
	err := storageDecryptRun(&storageDecryptOptions{f: f, Yes: true})
	if !errors.Is(err, seal.ErrWrongKey) || !strings.Contains(errb.String(), filepath.Join(home, "sessions", "a.json")) {
		t.Fatalf("wrong key: %v\n%s", err, errb)
	}
	if after := snapshotFiles(t, home); after != before {
		t.Error("a failed decrypt changed files")
	}
	checkEachOpens(t, home, ids, key)
}

// snapshotFiles is the content of every session and journal file under
// home, for comparing before and after.
func snapshotFiles(t *testing.T, home string) string {
	t.Helper()
	var b strings.Builder
	filepath.WalkDir(home, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() && (strings.HasSuffix(p, ".json") || strings.HasSuffix(p, ".jsonl")) && !strings.Contains(p, "cache") {
			data, _ := os.ReadFile(p)
			fmt.Fprintf(&b, "%s %x\n", p, data)
		}
		return nil
	})
	return b.String()
}

// TestE2EStorageDecrypt: a store sealed through the binary is plaintext
// after storage decrypt --yes, and reads without the key.
func TestE2EStorageDecrypt(t *testing.T) {
	home := t.TempDir()
	env := []string{"CHATCLI_HOME=" + home, "CHATCLI_ENCRYPTION_KEY=" + b64Key(3)}
	mustRun(t, env, sealMarker+" one\n/session save zoo\n")
	mustRun(t, env, "", "-p", sealMarker+" two", "--session", "zoo")
	mustRun(t, env, "", "session", "search", sealMarker) // a sealed index, which decrypt removes
	if out, errOut, code := run(t, env, "", "storage", "decrypt"); code != 2 || !strings.Contains(errOut, "--yes") {
		t.Fatalf("without --yes: exit %d\n%s%s", code, out, errOut)
	}
	out := mustRun(t, env, "", "storage", "decrypt", "--yes")
	if !strings.Contains(out, "written as plaintext") {
		t.Fatalf("decrypt:\n%s", out)
	}
	plain := []string{"CHATCLI_HOME=" + home}
	if out := mustRun(t, plain, "", "session", "show", "zoo"); !strings.Contains(out, sealMarker+" two") {
		t.Fatalf("show without the key:\n%s", out)
	}
	if out := mustRun(t, plain, "", "session", "search", sealMarker); !strings.Contains(out, "zoo") {
		t.Fatalf("search without the key:\n%s", out)
	}
	if out := mustRun(t, env, "", "storage", "decrypt", "--yes"); !strings.Contains(out, "0 files written as plaintext") {
		t.Errorf("second run:\n%s", out)
	}
}

// TestDecryptCoversHistoryContextsAndMemory: after storage decrypt, the
// input history, every context and the memory notes open without the key,
// and a sealed file-checkpoint folder, which is not decrypted, is named.
func TestDecryptCoversHistoryContextsAndMemory(t *testing.T) {
	keyS := b64Key(1)
	key := parsed(t, keyS)
	home := t.TempDir()
	rekeyStore(t, home, key)
	hist := filepath.Join(home, "history")
	line, err := seal.SealLine(key, "history", []byte("hello there"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(hist, append(line, '\n'), 0o600); err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(src, []byte("context text"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := contexts.Open(home, key).Create("ctx", []string{src}); err != nil {
		t.Fatal(err)
	}
	if _, err := memory.Open(home, key).Save("a fact"); err != nil {
		t.Fatal(err)
	}
	ws := t.TempDir()
	repo, err := shadow.Open(home, ws, key)
	if err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(ws, "f.txt")
	if err := repo.BeforeChange(target); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(target, []byte("x"), 0o600)
	if err := repo.AfterChange(target); err != nil {
		t.Fatal(err)
	}
	if _, err := repo.Checkpoint(); err != nil {
		t.Fatal(err)
	}
	f, out, errb := rekeyFactory(home, map[string]string{"CHATCLI_ENCRYPTION_KEY": keyS})
	if err := storageDecryptRun(&storageDecryptOptions{f: f, Yes: true}); err != nil {
		t.Fatalf("decrypt: %v\n%s", err, errb)
	}
	if data, _ := os.ReadFile(hist); string(data) != "hello there\n" {
		t.Errorf("history after decrypt: %q", data)
	}
	if c, err := contexts.Open(home, seal.Key{}).Load("ctx"); err != nil || c == nil {
		t.Errorf("context without the key: %v", err)
	}
	if n, err := memory.Open(home, seal.Key{}).List(); err != nil || len(n) != 1 || n[0].Text != "a fact" {
		t.Errorf("memory without the key: %v %v", n, err)
	}
	if !strings.Contains(errb.String(), "file checkpoints stay encrypted") || !strings.Contains(out.String(), "1 file-checkpoint folder stays encrypted, listed above") {
		t.Errorf("sealed checkpoints not named:\nstdout %q\nstderr %q", out, errb)
	}
}

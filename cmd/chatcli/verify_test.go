package main

import (
	"bytes"
	"encoding/json"
	"github.com/chatcli/chatcli/internal/i18n"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/chatcli/chatcli/internal/seal"
)

// journalOf returns the journal file session name's file names.
func journalOf(t *testing.T, env []string, home, name string) string {
	t.Helper()
	var d struct {
		TranscriptID string `json:"transcript_id"`
	}
	if err := json.Unmarshal([]byte(mustRun(t, env, "", "session", "show", name, "--json")), &d); err != nil || d.TranscriptID == "" {
		t.Fatalf("session %s names no journal: %v", name, err)
	}
	return filepath.Join(home, "transcripts", d.TranscriptID+".jsonl")
}

// verifyJSON runs storage verify --json [args] and decodes its report.
func verifyJSON(t *testing.T, env []string, args ...string) (verifySummary, int) {
	t.Helper()
	out, errOut, code := run(t, env, "", append([]string{"storage", "verify", "--json"}, args...)...)
	var sum verifySummary
	if err := json.Unmarshal([]byte(out), &sum); err != nil {
		t.Fatalf("verify --json (exit %d) is not JSON: %v\n%s\n%s", code, err, out, errOut)
	}
	return sum, code
}

// TestStorageVerifyRepair: a store made through the product is sound;
// damaged on purpose (bit rot in a journal line, a torn journal line, a
// cut session file, a cut trashed session) verify names every damaged
// file and line and exits 6; --repair keeps the journal as it was in
// .broken, rewrites it so that the warnings stop, and leaves the session
// files as they are but for the journal position of the one naming it.
func TestStorageVerifyRepair(t *testing.T) {
	home := t.TempDir()
	env := []string{"CHATCLI_HOME=" + home}
	mustRun(t, env, "", "-p", "hello there", "--session", "demo")
	mustRun(t, env, "", "-p", "again", "--session", "demo")
	mustRun(t, env, "", "-p", "bye", "--session", "gone")
	mustRun(t, env, "", "session", "delete", "gone", "--yes")
	if out := mustRun(t, env, "", "storage", "verify"); !strings.Contains(out, "Checked 1 session file, 1 trashed session and 2 journals.\nEverything is sound.\n") {
		t.Fatalf("a sound store:\n%s", out)
	}

	j := journalOf(t, env, home, "demo")
	data, _ := os.ReadFile(j)
	first, _, _ := bytes.Cut(data, []byte("\n"))
	if !bytes.Contains(first, []byte(`"content":"hello there"`)) {
		t.Fatalf("line 1: %s", first)
	}
	damaged := bytes.Replace(data, []byte("hello there"), []byte("hellp there"), 1) // bit rot
	damaged = append(damaged, `{"type":"message","at":"20`...)                      // a crash mid-append
	os.WriteFile(j, damaged, 0o600)
	lines := bytes.Count(damaged, []byte("\n")) + 1
	cut := filepath.Join(home, "sessions", "cut.json")
	os.WriteFile(cut, []byte(`{"version":2,"chat_his`), 0o600)
	trashed, _ := filepath.Glob(filepath.Join(home, "trash", "gone.*.json"))
	if len(trashed) != 1 {
		t.Fatalf("trash: %v", trashed)
	}
	tb, _ := os.ReadFile(trashed[0])
	os.WriteFile(trashed[0], tb[:len(tb)/2], 0o600)
	untouched := map[string][]byte{cut: []byte(`{"version":2,"chat_his`), trashed[0]: tb[:len(tb)/2]}

	out, errOut, code := run(t, env, "", "storage", "verify")
	for _, want := range []string{
		"damaged: " + j + ": 2 damaged lines of " + strconv.Itoa(lines),
		j + ":1: checksum mismatch (stored ",
		j + ":" + strconv.Itoa(lines) + ": torn last line, ",
		"damaged: session: unreadable file: " + cut + ": ",
		"damaged: session: unreadable file: " + trashed[0] + ": ",
		"3 damaged, 0 repaired, 0 not checked.",
		"`chatcli storage verify --repair`",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("verify lacks %q", want)
		}
	}
	if code != exitDamaged || !strings.Contains(errOut, "chatcli: storage verify: damage found: 3 damaged files") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	// A load reads the journal after the session file's position only:
	// the torn last line is reported, line 1 is covered by the file.
	if _, errOut, _ := run(t, env, "", "-p", "third", "--session", "demo"); !strings.Contains(errOut, j+":"+strconv.Itoa(lines)+": skipped a damaged line (torn last line") {
		t.Fatalf("the damaged journal read without warnings:\n%s", errOut)
	}
	before, _ := os.ReadFile(j) // the turn appended to the damaged journal

	sum, code := verifyJSON(t, env, "--repair")
	if code != exitDamaged || sum.Sound || sum.Damaged != 2 || sum.Repaired != 1 || sum.Sessions != 2 || sum.Trash != 1 || sum.Journals != 2 {
		t.Fatalf("verify --repair: exit %d %+v", code, sum)
	}
	var rep verifyProblem
	for _, p := range sum.Problems {
		switch p.Path {
		case j:
			rep = p
		case cut, trashed[0]:
			if p.Verdict != verdictDamaged || !p.LeftAsIs || p.Kind != map[string]string{cut: "session", trashed[0]: "trash"}[p.Path] {
				t.Errorf("%+v", p)
			}
		default:
			t.Errorf("unexpected problem %+v", p)
		}
	}
	if rep.Verdict != verdictRepaired || rep.Broken != j+".broken" || rep.DamagedLines != 2 || len(rep.FirstDamaged) != 2 || rep.FirstDamaged[0].Line != 1 {
		t.Fatalf("journal: %+v", rep)
	}
	if got, _ := os.ReadFile(rep.Broken); !bytes.Equal(got, before) {
		t.Fatal(".broken does not hold the journal as it was")
	}
	for p, b := range untouched {
		if got, _ := os.ReadFile(p); !bytes.Equal(got, b) {
			t.Fatalf("--repair changed %s", p)
		}
	}
	// The session file, a snapshot of the whole journal, names the
	// rewritten journal's end, where its records now end.
	var pos struct {
		JournalPos struct{ Offset int64 } `json:"journal_pos"`
	}
	demo, _ := os.ReadFile(filepath.Join(home, "sessions", "demo.json"))
	json.Unmarshal(demo, &pos)
	if st, err := os.Stat(j); err != nil || rep.Placed != 1 || pos.JournalPos.Offset != st.Size() {
		t.Fatalf("the session file's journal_pos after the repair: %+v, %d file(s) placed, journal of %v bytes", pos, rep.Placed, st)
	}
	if _, errOut, _ := run(t, env, "", "-p", "fourth", "--session", "demo"); strings.Contains(errOut, "skipped") {
		t.Fatalf("warnings after the repair:\n%s", errOut)
	}
	var d doc
	json.Unmarshal([]byte(mustRun(t, env, "", "session", "show", "demo", "--json")), &d)
	if len(d.ChatHistory) != 8 || d.ChatHistory[0].Content != "hello there" {
		t.Fatalf("the session after the repair: %+v", d.ChatHistory)
	}

	// Again: the rewritten journal is sound; an earlier .broken is never replaced.
	os.Remove(cut)
	os.Remove(trashed[0])
	if out := mustRun(t, env, "", "storage", "verify", "--repair"); !strings.Contains(out, "Everything is sound.") {
		t.Fatalf("after removing the damaged sessions:\n%s", out)
	}
	f, _ := os.OpenFile(j, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("not json\n")
	f.Close()
	sum, code = verifyJSON(t, env, "--repair")
	if code != 0 || !sum.Sound || sum.Repaired != 1 || sum.Problems[0].Broken != j+".broken-1" {
		t.Fatalf("second repair: exit %d %+v", code, sum)
	}
	if got, _ := os.ReadFile(j + ".broken"); !bytes.Equal(got, before) {
		t.Fatal("the first .broken changed")
	}
}

// TestStorageVerifySealed: in a sealed store, verify without the key or
// with another one checks nothing and exits 4; with the key it finds a
// damaged sealed line, and --repair rewrites the journal with every other
// line still sealed, byte for byte.
func TestStorageVerifySealed(t *testing.T) {
	home := t.TempDir()
	right := []string{"CHATCLI_HOME=" + home, "CHATCLI_ENCRYPTION_KEY=" + b64Key(1)}
	mustRun(t, right, "", "-p", sealMarker+" one", "--session", "zoo")
	mustRun(t, right, "", "-p", sealMarker+" two", "--session", "zoo")
	j := journalOf(t, right, home, "zoo")
	data, _ := os.ReadFile(j)
	lines := bytes.SplitAfter(data, []byte("\n"))
	bad := bytes.Clone(lines[1])
	i := len("chatcli-sealed:v1:") + 20
	bad[i] = map[bool]byte{true: 'B', false: 'A'}[bad[i] == 'A'] // another base64 digit
	damaged := bytes.Join(append([][]byte{lines[0], bad}, lines[2:]...), nil)
	os.WriteFile(j, damaged, 0o600)

	for _, env := range [][]string{{"CHATCLI_HOME=" + home}, {"CHATCLI_HOME=" + home, "CHATCLI_ENCRYPTION_KEY=" + b64Key(2)}} {
		sum, code := verifyJSON(t, env)
		if code != exitData || sum.Sound || sum.Unchecked != 2 || sum.Damaged != 0 {
			t.Fatalf("%v: exit %d %+v", env, code, sum)
		}
	}
	out, _, code := run(t, right, "", "storage", "verify")
	if code != exitDamaged || !strings.Contains(out, j+":2: sealed line does not open") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	sum, code := verifyJSON(t, right, "--repair")
	if code != 0 || !sum.Sound || sum.Repaired != 1 || sum.Problems[0].Placed != 1 {
		t.Fatalf("repair: exit %d %+v", code, sum) // the sealed session file names the journal's new end
	}
	if got, _ := os.ReadFile(j + ".broken"); !bytes.Equal(got, damaged) {
		t.Fatal(".broken does not hold the journal as it was")
	}
	want := bytes.Join(append([][]byte{lines[0]}, lines[2:]...), nil)
	if got, _ := os.ReadFile(j); !bytes.Equal(got, want) {
		t.Fatal("the lines that open were not kept byte for byte")
	}
	if _, errOut, _ := run(t, right, "", "-p", "three", "--session", "zoo"); strings.Contains(errOut, "skipped") {
		t.Fatalf("warnings after the repair:\n%s", errOut)
	}
	got, _ := os.ReadFile(j)
	if bytes.Contains(got, []byte(sealMarker)) {
		t.Fatal("plaintext in the repaired journal")
	}
	for _, l := range bytes.Split(bytes.TrimSuffix(got, []byte("\n")), []byte("\n")) {
		if !seal.IsSealedLine(l) {
			t.Fatalf("a plaintext line: %q", l)
		}
	}
}

// TestStorageVerifyFlags: --repair and --json reach the options; a
// positional argument is refused; --help names exit status 6.
func TestStorageVerifyFlags(t *testing.T) {
	var errb bytes.Buffer
	f := &factory{streams: &ioStreams{In: strings.NewReader(""), Out: &bytes.Buffer{}, Err: &errb}, getenv: func(string) string { return "" }}
	var got *storageVerifyOptions
	cmd := newStorageVerifyCmd(f, func(o *storageVerifyOptions) error { got = o; return nil })
	cmd.SetArgs([]string{"--repair", "--json"})
	if err := cmd.Execute(); err != nil || !got.Repair || !got.JSON {
		t.Fatalf("%v %+v", err, got)
	}
	if _, errOut, code := run(t, []string{"CHATCLI_HOME=" + t.TempDir()}, "", "storage", "verify", "now"); code != exitUsage || !strings.Contains(errOut, `unexpected argument "now"`) {
		t.Fatalf("exit %d %s", code, errOut)
	}
	out := mustRun(t, nil, "", "storage", "verify", "--help")
	if !strings.Contains(out, "6 when damage is found") || !strings.Contains(out, ".broken") {
		t.Fatalf("help:\n%s", out)
	}
	var progress bytes.Buffer
	for i := 1; i <= 1000; i++ {
		verifyProgress(nil, &progress, i, 1000)
	}
	if n := strings.Count(progress.String(), "\n"); n != 9 || !strings.HasPrefix(progress.String(), "storage verify: 100 of 1000 files checked\n") {
		t.Fatalf("progress:\n%s", progress.String())
	}
	progress.Reset()
	verifyProgress(i18n.New(i18n.Portuguese), &progress, 5000, 10000)
	if progress.String() != "storage verify: 5.000 de 10.000 arquivos verificados\n" {
		t.Fatalf("progress in Portuguese: %q", progress.String())
	}
	progress.Reset()
	verifyProgress(nil, &progress, 10, 20)
	if progress.Len() != 0 {
		t.Fatal("progress for a small store")
	}
}

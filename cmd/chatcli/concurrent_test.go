package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chatcli/chatcli/internal/journal"
	"github.com/chatcli/chatcli/internal/mcpserver"
	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/seal"
	"github.com/chatcli/chatcli/internal/session"
)

// gatedServer speaks the chat-completions wire format (non-streaming and
// SSE) and holds every request until release is closed; arrived is closed
// when the first request comes in.
func gatedServer(t *testing.T) (srv *httptest.Server, arrived, release chan struct{}) {
	arrived, release = make(chan struct{}), make(chan struct{})
	var once sync.Once
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Model  string `json:"model"`
			Stream bool   `json:"stream"`
		}
		json.NewDecoder(r.Body).Decode(&req)
		once.Do(func() { close(arrived) })
		<-release
		w.Header().Set("Content-Type", "text/event-stream")
		chunk, _ := json.Marshal(map[string]any{"id": "c1", "object": "chat.completion.chunk", "model": req.Model,
			"choices": []map[string]any{{"index": 0, "delta": map[string]any{"role": "assistant", "content": "reply to B"}}}})
		fin, _ := json.Marshal(map[string]any{"id": "c1", "object": "chat.completion.chunk", "model": req.Model,
			"choices": []map[string]any{{"index": 0, "delta": map[string]any{}, "finish_reason": "stop"}}})
		fmt.Fprintf(w, "data: %s\n\ndata: %s\n\ndata: [DONE]\n\n", chunk, fin)
	}))
	t.Cleanup(srv.Close)
	return srv, arrived, release
}

func userPrompts(h []message.Message) []string {
	var out []string
	for _, m := range h {
		if m.Role == message.RoleUser {
			out = append(out, m.Content)
		}
	}
	return out
}

// con-1 with two processes: A and B both have session S loaded; A adds a
// turn and saves while B's turn is in flight; then B saves. Both turns
// must be in S.
func TestCon1TwoProcesses(t *testing.T) {
	home := t.TempDir()
	env := []string{"CHATCLI_HOME=" + home}
	if out, errOut, code := run(t, env, "/session attach S\nzero\n"); code != 0 {
		t.Fatalf("setup: %d\n%s\n%s", code, out, errOut)
	}
	srv, arrived, release := gatedServer(t)
	b := exec.Command(binary)
	b.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "CHATCLI_HOME=" + home,
		"OPENAI_BASE_URL=" + srv.URL + "/v1", "OPENAI_MODEL=test-model"}
	b.Stdin = strings.NewReader("/session attach S\nfrom B\n")
	var bOut, bErr bytes.Buffer
	b.Stdout, b.Stderr = &bOut, &bErr
	if err := b.Start(); err != nil {
		t.Fatal(err)
	}
	select { // B has read S and sent its request
	case <-arrived:
	case <-time.After(20 * time.Second):
		b.Process.Kill()
		t.Fatalf("B never sent its request:\n%s\n%s", bOut.String(), bErr.String())
	}
	if out, errOut, code := run(t, env, "/session attach S\nfrom A\n"); code != 0 {
		t.Fatalf("A: %d\n%s\n%s", code, out, errOut)
	}
	close(release)
	if err := b.Wait(); err != nil {
		t.Fatalf("B: %v\n%s\n%s", err, bOut.String(), bErr.String())
	}
	st, err := session.Open(filepath.Join(home, "sessions"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := st.Load("S")
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(userPrompts(s.History), ","); got != "zero,from A,from B" || s.History[len(s.History)-1].Content != "reply to B" {
		t.Fatalf("S holds %q; B said:\n%s", got, bErr.String())
	}
	if !strings.Contains(bErr.String(), `session "S" gained 2 message(s) elsewhere`) {
		t.Fatalf("B did not say it merged:\n%s", bErr.String())
	}
	checkJournals(t, home)
}

// checkJournals checks that every line of every journal under home parses.
func checkJournals(t *testing.T, home string) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(home, "transcripts", "*.jsonl"))
	if len(files) == 0 {
		t.Fatal("no journal written")
	}
	for _, f := range files {
		_, _, warnings, err := journal.Messages(f, seal.Key{})
		if err != nil || len(warnings) != 0 {
			t.Fatalf("journal %s: %v %v", f, err, warnings)
		}
	}
}

var (
	forkNote  = regexp.MustCompile(`kept as session "([^"]+)"`)
	lockStats = regexp.MustCompile(`lockstats: locks=(\d+) contended=(\d+) wait_total_us=(\d+) wait_avg_us=\d+ wait_max_us=(\d+)`)
)

// stress runs replProcs REPL processes in script mode and mcpProcs
// `chatcli mcp-server` processes, each driven by a Go MCP client, all at
// once on session S: every process sends turns prompts. It checks that no
// session file is unreadable, that every prompt is in S or in a conflict
// fork a process announced, that no other session appeared, and that every
// journal line parses; it logs turns per second and the lock waits.
func stress(t *testing.T, replProcs, mcpProcs, turns int) {
	home := t.TempDir()
	// A context window large enough that no turn compacts: this checks
	// concurrency, not compaction.
	env := []string{"CHATCLI_HOME=" + home, "CHATCLI_DEBUG_LOCKSTATS=1", "CHATCLI_CONTEXT_WINDOW=10000000"}
	procs := replProcs + mcpProcs
	type result struct {
		stderr string
		err    error
	}
	results := make([]result, procs)
	var wg sync.WaitGroup
	start := time.Now()
	for p := range replProcs {
		var in strings.Builder
		in.WriteString("/session attach S\n")
		for i := range turns {
			fmt.Fprintf(&in, "p%d turn %d\n", p, i)
		}
		cmd := exec.Command(binary)
		cmd.Env = surfaceEnv(t, env)
		cmd.Stdin = strings.NewReader(in.String())
		var errb bytes.Buffer
		cmd.Stderr = &errb
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := cmd.Run()
			results[p] = result{errb.String(), err}
		}()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	for p := replProcs; p < procs; p++ {
		m := startMCP(t, env)
		wg.Add(1)
		go func() {
			defer wg.Done()
			var warnings []string
			var err error
			for i := range turns {
				var out mcpserver.ChatOutput
				if out, err = m.chat(ctx, fmt.Sprintf("p%d turn %d", p, i), "S"); err != nil {
					err = fmt.Errorf("chat %d: %w", i, err)
					break
				}
				if out.Warning != "" {
					warnings = append(warnings, "warning: "+out.Warning)
				}
			}
			stderr, cerr := m.shutdown()
			if err == nil && len(warnings) > 0 {
				err = fmt.Errorf("chat warnings: %s", strings.Join(warnings, "\n"))
			}
			results[p] = result{stderr, errors.Join(err, cerr)}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)

	st, err := session.Open(filepath.Join(home, "sessions"))
	if err != nil {
		t.Fatal(err)
	}
	forks := map[string]bool{}
	var locks, contended, waitUS, maxUS int64
	for p, r := range results {
		if r.err != nil {
			t.Fatalf("process %d: %v\n%s", p, r.err, r.stderr)
		}
		for _, m := range forkNote.FindAllStringSubmatch(r.stderr, -1) {
			forks[m[1]] = true
			if os.Getenv("CHATCLI_STRESS_LOG") != "" {
				t.Logf("process %d:\n%s", p, r.stderr)
			}
		}
		m := lockStats.FindStringSubmatch(r.stderr)
		if m == nil {
			t.Fatalf("process %d printed no lock stats:\n%s", p, r.stderr)
		}
		kind := "REPL"
		if p >= replProcs {
			kind = "MCP"
		}
		t.Logf("process %d (%s): %s", p, kind, m[0])
		n := func(i int) int64 { v, _ := strconv.ParseInt(m[i], 10, 64); return v }
		locks, contended, waitUS, maxUS = locks+n(1), contended+n(2), waitUS+n(3), max(maxUS, n(4))
	}
	list, err := st.List()
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	for _, h := range list {
		if h.Err != nil {
			t.Fatalf("unreadable session %s: %v", h.Name, h.Err)
		}
		if h.Name != "S" && !forks[h.Name] {
			t.Fatalf("session %q appeared without a note naming it", h.Name)
		}
		s, err := st.Load(h.Name)
		if err != nil {
			t.Fatal(err)
		}
		for _, u := range userPrompts(s.History) {
			have[u] = true
		}
		if err := message.Validate(s.History); err != nil {
			t.Fatalf("session %s: %v", h.Name, err)
		}
	}
	for p := range procs {
		for i := range turns {
			if prompt := fmt.Sprintf("p%d turn %d", p, i); !have[prompt] {
				t.Fatalf("%q is in no session (forks %v)", prompt, forks)
			}
		}
	}
	checkJournals(t, home)
	total := procs * turns
	avg := int64(0)
	if locks > 0 {
		avg = waitUS / locks
	}
	t.Logf("%d processes (%d REPL, %d MCP) x %d turns: %.1f s, %.0f turns/s; %d conflict forks; locks %d (%d contended), wait total %.1f ms, avg %d us, max %.1f ms",
		procs, replProcs, mcpProcs, turns, elapsed.Seconds(), float64(total)/elapsed.Seconds(), len(forks), locks, contended,
		float64(waitUS)/1000, avg, float64(maxUS)/1000)
}

func TestConcurrentWritersSmall(t *testing.T) { stress(t, 2, 2, 10) }

// TestConcurrentWritersStress is the full run, 2 REPL and 2 MCP processes
// x 200 turns: CHATCLI_STRESS=1 go test ./cmd/chatcli -run Stress -v
// -timeout 20m
func TestConcurrentWritersStress(t *testing.T) {
	if os.Getenv("CHATCLI_STRESS") == "" {
		t.Skip("set CHATCLI_STRESS=1 for 4 processes (2 REPL, 2 MCP) x 200 turns")
	}
	stress(t, 2, 2, 200)
}

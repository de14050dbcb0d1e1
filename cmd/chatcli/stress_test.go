package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	acp "github.com/coder/acp-go-sdk"

	"github.com/chatcli/chatcli/internal/mcpserver"
	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/session"
)

var (
	forkNote  = regexp.MustCompile(`kept as session "([^"]+)"`)
	lockStats = regexp.MustCompile(`lockstats: locks=(\d+) contended=(\d+) wait_total_us=(\d+) wait_avg_us=\d+ wait_max_us=(\d+)`)
)

// stressRun is one run of stress: REPL script-mode processes, mcp-server
// processes, acp processes, turns per process, and the context window in
// tokens (0: one so large that no turn compacts).
type stressRun struct{ REPL, MCP, ACP, Turns, Window int }

// stress runs r.REPL REPL processes in script mode, r.MCP `chatcli
// mcp-server` processes, each driven by a Go MCP client, and r.ACP `chatcli
// acp` processes, each driven by the acp-go-sdk client (session/load S),
// all at once on session S: every process sends r.Turns prompts. It checks that no session
// file is unreadable, that no session appeared without a conflict notice
// naming it, that every prompt is in a journal, and that every journal line
// parses; without compaction, also that every prompt is in S or in an
// announced conflict fork (a compaction summarises older prompts away from
// the sessions, not from the journal). It logs turns per second and the
// lock waits.
func stress(t *testing.T, r stressRun) {
	home := t.TempDir()
	replProcs, mcpProcs, turns := r.REPL, r.MCP, r.Turns
	compacting := r.Window != 0
	window := "10000000"
	if compacting {
		window = strconv.Itoa(r.Window)
	}
	env := []string{"CHATCLI_HOME=" + home, "CHATCLI_DEBUG_LOCKSTATS=1", "CHATCLI_CONTEXT_WINDOW=" + window}
	procs := replProcs + mcpProcs + r.ACP
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
	for p := replProcs + mcpProcs; p < procs; p++ {
		a := startACP(t, env)
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := a.conn.LoadSession(ctx, acp.LoadSessionRequest{SessionId: "S", Cwd: "/tmp", McpServers: []acp.McpServer{}})
			for i := 0; i < turns && err == nil; i++ {
				if err = a.turn(ctx, "S", fmt.Sprintf("p%d turn %d", p, i)); err != nil {
					err = fmt.Errorf("prompt %d: %w", i, err)
				}
			}
			a.client.take()
			stderr, cerr := a.shutdown()
			results[p] = result{stderr, errors.Join(err, cerr)}
		}()
	}
	for p := replProcs; p < replProcs+mcpProcs; p++ {
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
		if p >= replProcs+mcpProcs {
			kind = "ACP"
		} else if p >= replProcs {
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
	if compacted := slices.ContainsFunc(results, func(r result) bool { return strings.Contains(r.stderr, "note: Compacted") }); compacted != compacting {
		t.Fatalf("compaction expected %v, happened %v", compacting, compacted)
	}
	journalled := checkJournals(t, home)
	for p := range procs {
		for i := range turns {
			prompt := fmt.Sprintf("p%d turn %d", p, i)
			if !journalled[prompt] {
				t.Fatalf("%q is in no journal", prompt)
			}
			if !have[prompt] && !compacting {
				t.Fatalf("%q is in no session (forks %v)", prompt, forks)
			}
		}
	}
	total := procs * turns
	avg := int64(0)
	if locks > 0 {
		avg = waitUS / locks
	}
	t.Logf("%d processes (%d REPL, %d MCP, %d ACP) x %d turns: %.1f s, %.0f turns/s; %d conflict forks; locks %d (%d contended), wait total %.1f ms, avg %d us, max %.1f ms",
		procs, replProcs, mcpProcs, r.ACP, turns, elapsed.Seconds(), float64(total)/elapsed.Seconds(), len(forks), locks, contended,
		float64(waitUS)/1000, avg, float64(maxUS)/1000)
}

func TestConcurrentWritersSmall(t *testing.T) { stress(t, stressRun{REPL: 2, MCP: 2, Turns: 10}) }

// TestConcurrentWritersCompacting runs small context windows, so that the
// processes compact S while the others write to it: compaction cannot be
// merged, so conflict forks are made and announced, by MCP servers too.
func TestConcurrentWritersCompacting(t *testing.T) {
	stress(t, stressRun{REPL: 2, MCP: 2, ACP: 1, Turns: 20, Window: 1100})
}

// TestConcurrentWritersStress is the full run, 2 REPL and 2 MCP processes
// x 200 turns: CHATCLI_STRESS=1 go test ./cmd/chatcli -run Stress -v
// -timeout 20m
func TestConcurrentWritersStress(t *testing.T) {
	if os.Getenv("CHATCLI_STRESS") == "" {
		t.Skip("set CHATCLI_STRESS=1 for 4 processes (2 REPL, 2 MCP) x 200 turns")
	}
	stress(t, stressRun{REPL: 2, MCP: 2, Turns: 200})
}

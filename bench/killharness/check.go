package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// list runs `session list --json`; a failure is a violation.
func (h *harness) list() ([]listEntry, bool) {
	r := h.chat("", "session", "list", "--json")
	var list []listEntry
	if err := json.Unmarshal(r.stdout, &list); !r.ok() || err != nil {
		h.violate("3", "session list --json failed:\n"+r.describe())
		return nil, false
	}
	return list, true
}

// show runs `session show NAME --json`.
func (h *harness) show(name string) (*sessionDoc, runResult) {
	r := h.chat("", "session", "show", name, "--json")
	if !r.ok() {
		return nil, r
	}
	var doc sessionDoc
	if err := json.Unmarshal(r.stdout, &doc); err != nil {
		r.err = fmt.Errorf("the document does not parse: %v", err)
		return nil, r
	}
	return &doc, r
}

// export runs `session export NAME jsonl -`: every message of the journal.
func (h *harness) export(name string) ([]message, runResult) {
	r := h.chat("", "session", "export", name, "jsonl", "-")
	if !r.ok() {
		return nil, r
	}
	msgs, err := parseExport(r.stdout)
	if err != nil {
		r.err = fmt.Errorf("the export does not parse: %v", err)
		return nil, r
	}
	return msgs, r
}

// verify runs `storage verify --json` with key as CHATCLI_ENCRYPTION_KEY.
func (h *harness) verify(key string) (verifyReport, int) {
	r := h.chatEnv(h.env(key, ""), "", "storage", "verify", "--json")
	var rep verifyReport
	if err := json.Unmarshal(r.stdout, &rep); err != nil || r.killed || r.err != nil {
		h.violate("3", "storage verify --json gave no report:\n"+r.describe())
		return rep, -1
	}
	return rep, r.code
}

// check verifies the invariants after an operation: the listing, the
// sessions touched (all with full, exported too), storage verify.
func (h *harness) check(touched []string, full bool) {
	h.checks++
	if full {
		h.fullChecks++
	}
	list, ok := h.list()
	if !ok {
		return
	}
	names := map[string]bool{}
	for _, le := range list {
		names[le.Name] = true
		if le.Error != "" {
			h.violate("3", fmt.Sprintf("session list shows %s as unreadable: %s", le.Name, le.Error))
		}
	}
	h.names = names
	for _, n := range h.sorted() {
		if !names[n] {
			e := h.live[n]
			h.violate("2", fmt.Sprintf("session %s (%d acknowledged turns) is gone; trashed copies: %d", n, len(e.tokens), trashCounts(h.home)[n]))
			delete(h.live, n)
		}
	}
	for _, le := range list {
		if h.live[le.Name] == nil {
			h.notes["sessions that appeared without being asked for"]++
			if strings.Contains(le.Name, ".conflict-") {
				h.notes["conflict sessions"]++
			}
			h.live[le.Name] = &entry{disposable: true, born: h.ops}
		}
	}
	var look []string
	if full {
		look = h.sorted()
	} else {
		seen := map[string]bool{}
		for _, n := range touched {
			if h.live[n] != nil && !seen[n] {
				seen[n] = true
				look = append(look, n)
			}
		}
	}
	for _, n := range look {
		h.checkSession(n, full)
	}
	rep, code := h.verify(h.key)
	h.judgeVerify(rep, code, "storage verify")
	for t := range tempFiles(h.home) {
		if !h.temps[t] {
			h.temps[t] = true
			h.notes["temporary files left by kills inside an atomic write"]++
			if h.cur != nil && strings.Contains(t, "sessions/.") {
				for n, e := range h.live {
					if e.long && strings.HasPrefix(filepath.Base(t), "."+n+".json.tmp-") {
						h.notes["kills inside a write of the long session's file (snapshot)"]++
					}
				}
			}
		}
	}
}

// checkSession shows one session (and with export, exports it) and checks
// that every acknowledged turn it should hold is there.
func (h *harness) checkSession(name string, export bool) {
	e := h.live[name]
	doc, r := h.show(name)
	if doc == nil {
		h.violate("3", "session show "+name+" --json failed:\n"+r.describe())
		return
	}
	have := turnsIn(doc.ChatHistory)
	h.ackChecks += len(e.tokens)
	var missing []string
	for _, t := range e.tokens {
		if !have[t] {
			missing = append(missing, t)
		}
	}
	if len(missing) > 0 {
		where := h.findTokens(missing)
		h.violate("1", fmt.Sprintf("session %s lacks %d of its %d acknowledged turns: %s\n%s", name, len(missing), len(e.tokens),
			clip(strings.Join(missing, " "), 400), where))
		e.tokens = without(e.tokens, missing)
	}
	if !export {
		return
	}
	msgs, r := h.export(name)
	if msgs == nil {
		h.violate("3", "session export "+name+" jsonl failed:\n"+r.describe())
		return
	}
	have = turnsIn(msgs)
	missing = missing[:0]
	for _, t := range e.tokens {
		if !have[t] {
			missing = append(missing, t)
		}
	}
	h.ackChecks += len(e.tokens)
	if len(missing) > 0 {
		h.violate("1", fmt.Sprintf("the journal export of %s lacks %d of its %d acknowledged turns: %s", name, len(missing), len(e.tokens),
			clip(strings.Join(missing, " "), 400)))
	}
}

// findTokens says which other sessions hold the tokens a session lacks
// (for a violation's report).
func (h *harness) findTokens(toks []string) string {
	var b strings.Builder
	for _, n := range h.sorted() {
		doc, _ := h.show(n)
		if doc == nil {
			continue
		}
		have := turnsIn(doc.ChatHistory)
		k := 0
		for _, t := range toks {
			if have[t] {
				k++
			}
		}
		if k > 0 {
			fmt.Fprintf(&b, "  %d of them are in session %s\n", k, n)
		}
	}
	if b.Len() == 0 {
		return "  no listed session holds them"
	}
	return b.String()
}

func without(all, drop []string) []string {
	d := map[string]bool{}
	for _, t := range drop {
		d[t] = true
	}
	var out []string
	for _, t := range all {
		if !d[t] {
			out = append(out, t)
		}
	}
	return out
}

// judgeVerify applies invariant 3 to a verify report: no damaged or
// unchecked session file, and no damaged journal line other than torn
// last lines (each seen as the journal's last line when it appeared). A
// journal that gathered several torn lines is repaired (storage verify
// --repair, no kill), so that verify lists them all.
func (h *harness) judgeVerify(rep verifyReport, code int, what string) {
	if code < 0 {
		return
	}
	if code != 0 && code != 6 && code != 4 {
		h.violate("3", fmt.Sprintf("%s exited %d", what, code))
	}
	if code == 0 && len(rep.Problems) > 0 {
		h.violate("3", fmt.Sprintf("%s exited 0 with %d problems", what, len(rep.Problems)))
	}
	repair := false
	for _, p := range rep.Problems {
		rel, _ := filepath.Rel(h.home, p.Path)
		if !lineDamage(p) {
			h.violate("3", fmt.Sprintf("%s: %s %s is %s: %s", what, p.Kind, rel, p.Verdict, p.Error))
			continue
		}
		known := h.torn[p.Path]
		if known == nil {
			known = map[int]bool{}
			h.torn[p.Path] = known
		}
		var fresh []verifyLine
		for _, l := range p.FirstDamaged {
			if !known[l.Line] {
				fresh = append(fresh, l)
			}
		}
		// A new damaged line is allowed as the journal's last line (a torn
		// append), or reported as a copy of a torn line of another journal.
		var middle []verifyLine
		for _, l := range fresh {
			known[l.Line] = true
			src := h.inherited(p.Path, l.Line)
			switch {
			case src != "" && h.cfg.allowInherited:
				h.notes["torn lines copied into another journal (allowed by -allowinherited)"]++
			case src != "":
				h.violate("3", fmt.Sprintf("%s: journal %s line %d (of %d) is damaged (%s): it is the copy of %s, a torn last line there; the %s copied it into this new journal", what, rel, l.Line, p.Lines, l.Reason, src, h.cur.kind))
			case l.Line == p.Lines:
				h.notes["torn last journal lines (allowed)"]++
			default:
				middle = append(middle, l)
			}
		}
		if len(middle) > 0 {
			h.violate("3", fmt.Sprintf("%s: journal %s has damaged lines that are not its last line (%d lines) nor a torn line seen before: %v", what, rel, p.Lines, middle))
		}
		if len(p.FirstDamaged) < p.DamagedLines && p.DamagedLines > len(known)+1 {
			h.violate("3", fmt.Sprintf("%s: journal %s has %d damaged lines; only %d were torn last lines", what, rel, p.DamagedLines, len(known)))
		}
		if p.DamagedLines >= verifyFirstLines-1 {
			repair = true
		}
	}
	if repair {
		r := h.chat("", "storage", "verify", "--repair", "--json")
		if !r.ok() {
			h.violate("3", "storage verify --repair failed:\n"+r.describe())
		}
		h.notes["storage verify --repair runs (journals with several torn lines)"]++
		h.torn = map[string]map[int]bool{}
	}
}

// inherited tells whether line n of the journal at path is a torn line
// the harness saw in another journal, copied: by the fork being checked
// from its source session's journal (the copy keeps every line in place,
// re-sealed when the store is encrypted), or, in plaintext, byte for byte
// from any journal. It names that line ("" for none).
func (h *harness) inherited(path string, n int) string {
	if h.cur != nil && h.cur.src != "" {
		if doc, _ := h.show(h.cur.src); doc != nil && doc.TranscriptID != "" {
			src := filepath.Join(h.home, "transcripts", doc.TranscriptID+".jsonl")
			if src != path && h.torn[src][n] {
				return fmt.Sprintf("line %d of transcripts/%s.jsonl, the journal of %s", n, doc.TranscriptID, h.cur.src)
			}
		}
	}
	line := lineOf(path, n)
	if line == nil || h.key != "" {
		return ""
	}
	for other, known := range h.torn {
		if other == path {
			continue
		}
		for k := range known {
			if l := lineOf(other, k); l != nil && string(l) == string(line) {
				rel, _ := filepath.Rel(h.home, other)
				return fmt.Sprintf("line %d of %s (byte for byte)", k, rel)
			}
		}
	}
	return ""
}

// lineOf returns line n (1-based, without its "\n") of the file at path.
func lineOf(path string, n int) []byte {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	for i := 1; len(data) > 0; i++ {
		j := bytes.IndexByte(data, '\n')
		if j < 0 {
			j = len(data)
		}
		if i == n {
			return data[:j]
		}
		data = data[min(j+1, len(data)):]
	}
	return nil
}

// lineDamage reports whether p is a journal that reads, with damaged
// lines; otherwise the whole file failed (a session file, a journal that
// does not open: verify says damaged when the key opens other files).
func lineDamage(p verifyProblem) bool {
	return p.Kind == "journal" && p.Verdict == "damaged" && p.DamagedLines > 0 && p.Error == ""
}

// violate records a broken invariant of the current operation and keeps
// the store and the processes' output in the keep folder.
func (h *harness) violate(inv, detail string) {
	v := violation{invariant: inv, detail: detail, phase: h.phase}
	if o := h.cur; o != nil {
		v.op, v.kind, v.target, v.delay, v.killed = o.n, o.kind, o.target, o.res.delay, o.res.killed
	}
	var b strings.Builder
	fmt.Fprintf(&b, "invariant %s, op %d (%s phase) %s %s, %s\n\n%s\n\n", inv, v.op, v.phase, v.kind, v.target, v.how(), detail)
	if n := len(h.violations); n > 0 && h.violations[n-1].op == v.op && h.violations[n-1].dir != "" && h.cur == h.lastKept {
		// Another violation of the same check: the store copied for the
		// first one is this one's too.
		v.dir = h.violations[n-1].dir
		f, err := os.OpenFile(filepath.Join(v.dir, "report.txt"), os.O_APPEND|os.O_WRONLY, 0o600)
		if err == nil {
			f.WriteString("\n----\n" + b.String())
			f.Close()
		}
	} else if len(h.violations) < h.cfg.keepMax {
		dir := filepath.Join(h.cfg.keep, fmt.Sprintf("v%03d-op%d-%s", len(h.violations)+1, v.op, strings.ReplaceAll(v.kind, " ", "-")))
		if err := os.MkdirAll(dir, 0o700); err == nil {
			copyTree(h.home, filepath.Join(dir, "home"))
			if h.cur != nil && (h.cur.res.args != nil || h.cur.res.stdin != "") {
				b.WriteString("the operation's process:\n" + h.cur.res.describe() + "\n")
			}
			if h.cur != nil {
				for i, r := range h.cur.extra {
					fmt.Fprintf(&b, "process %d run after it:\n%s\n", i+1, r.describe())
				}
			}
			if h.key != "" {
				b.WriteString("CHATCLI_ENCRYPTION_KEY=" + h.key + "\n")
			}
			os.WriteFile(filepath.Join(dir, "report.txt"), []byte(b.String()), 0o600)
			v.dir, h.lastKept = dir, h.cur
		}
	}
	h.violations = append(h.violations, v)
	fmt.Fprintf(os.Stderr, "killharness: VIOLATION of invariant %s at op %d (%s %s, %s): %s\n", inv, v.op, v.kind, v.target, v.how(), firstLine(detail))
}

// how says how the operation's process ended against its kill.
func (v violation) how() string {
	switch {
	case v.kind == "setup" || v.kind == "full check" || v.kind == "final check":
		return "no kill"
	case v.delay < 0:
		return "calibration run, no kill"
	case v.killed:
		return "killed after " + v.delay.String()
	}
	return "ended before its kill at " + v.delay.String()
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// copyTree copies the regular files under src to dst.
func copyTree(src, dst string) {
	filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(src, p)
		t := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(t, 0o700)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		in, err := os.Open(p)
		if err != nil {
			return nil
		}
		defer in.Close()
		out, err := os.OpenFile(t, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
		if err != nil {
			return nil
		}
		io.Copy(out, in)
		return out.Close()
	})
}

// finalCheck shows and exports every session.
func (h *harness) finalCheck() {
	h.cur = &op{n: h.ops, kind: "final check"}
	h.check(nil, true)
}

// report prints the figures.
func (h *harness) report(elapsed time.Duration) {
	cal := 0
	for _, s := range h.stats {
		cal += s.calibration
	}
	fmt.Printf("\nkillharness: %d kills in %d runs (%d calibration runs without a kill, %d runs ended before their kill), %v\n",
		h.kills, h.runs, cal, h.runs-h.kills-cal, elapsed.Round(time.Second))
	fmt.Printf("%-10s %6s %6s %10s %11s %11s %10s\n", "operation", "runs", "kills", "on long", "beat kill", "calibrate", "max delay")
	for _, k := range kindOrder {
		s := h.stats[k]
		if s.runs == 0 {
			continue
		}
		fmt.Printf("%-10s %6d %6d %10d %11d %11d %10v\n", k, s.runs, s.kills, s.longKills, s.finished, s.calibration, s.maxDelay.Round(100*time.Microsecond))
	}
	fmt.Printf("kill delays: <5ms %d, 5-20ms %d, 20-50ms %d, 50-100ms %d, >=100ms %d\n", h.delays[0], h.delays[1], h.delays[2], h.delays[3], h.delays[4])
	fmt.Printf("acknowledged turns checked: %d during the kills (plus %d of the setup); %d checks of one turn in one session in all\n", h.acked-h.ackedSetup, h.ackedSetup, h.ackChecks)
	fmt.Printf("acknowledged turns of unbound REPL scripts killed before their exit autosave (no session holds them; not checked): %d\n", h.unbound)
	fmt.Printf("store checks: %d after operations, %d of them showing and exporting every session\n", h.checks, h.fullChecks)
	for n, e := range h.live {
		if e.long {
			fmt.Printf("long session: %s, %d acknowledged turns\n", n, len(e.tokens))
		}
	}
	if h.keys > 0 {
		fmt.Printf("encryption: %d keys in turn\n", h.keys)
	}
	var notes []string
	for k := range h.notes {
		notes = append(notes, k)
	}
	sort.Strings(notes)
	for _, k := range notes {
		fmt.Printf("  %s: %d\n", k, h.notes[k])
	}
	fmt.Printf("violations: %d\n", len(h.violations))
	for i, v := range h.violations {
		fmt.Printf("%3d. invariant %s, op %d (%s phase) %s %s, %s\n     %s\n", i+1, v.invariant, v.op, v.phase, v.kind, v.target,
			v.how(), strings.ReplaceAll(clip(v.detail, 1500), "\n", "\n     "))
		if v.dir != "" {
			fmt.Printf("     kept: %s\n", v.dir)
		}
	}
	if len(h.violations) > 0 {
		fmt.Printf("files kept for inspection in %s\n", h.cfg.keep)
	}
}

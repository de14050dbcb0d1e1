package main

import (
	"encoding/json"
	"fmt"
	mrand "math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"
)

// Operation kinds: each step runs one chatcli process of a kind and kills it.
const (
	kindTurnP    = "turn -p"
	kindTurnREPL = "turn repl"
	kindAutosave = "autosave"
	kindFork     = "fork"
	kindRename   = "rename"
	kindDelete   = "delete"
	kindRestore  = "restore"
	kindRekey    = "rekey"
)

var kindOrder = []string{kindTurnP, kindTurnREPL, kindAutosave, kindFork, kindRename, kindDelete, kindRestore, kindRekey}

// weights is how often each kind is drawn (rekey only when encrypted).
var weights = map[string]int{
	kindTurnP: 22, kindTurnREPL: 22, kindAutosave: 10, kindFork: 10,
	kindRename: 12, kindDelete: 12, kindRestore: 12, kindRekey: 9,
}

// maxDisposable is how many forks and autosaves the store keeps; older
// ones are deleted (to the trash) between operations, without a kill.
const maxDisposable = 6

// entry is what the harness expects of one session: the tokens of the
// acknowledged turns it holds.
type entry struct {
	tokens []string
	// long marks the session grown to thousands of messages.
	long bool
	// disposable: a fork or an autosave, removed when there are too many.
	disposable bool
	born       int
}

func (e *entry) clone() *entry {
	return &entry{tokens: slices.Clone(e.tokens), born: e.born}
}

// kindStat counts the runs of one operation kind.
type kindStat struct {
	runs, kills, finished int
	calibration           int
	longKills             int
	maxDelay              time.Duration
}

// violation is one broken invariant.
type violation struct {
	op        int
	phase     string
	kind      string
	target    string
	delay     time.Duration
	killed    bool
	invariant string
	detail    string
	dir       string
}

// op is the operation being checked.
type op struct {
	n      int
	kind   string
	target string
	src    string // a fork's source session
	res    runResult
	extra  []runResult // the other processes it ran (restore after a delete …)
}

// harness runs the operations and holds what the store must contain.
type harness struct {
	cfg   config
	rng   *mrand.Rand
	home  string
	phase string
	key   string // the current CHATCLI_ENCRYPTION_KEY ("" plaintext)
	keys  int    // keys the store was sealed under

	live    map[string]*entry
	names   map[string]bool // the listing after the last check
	torn    map[string]map[int]bool
	temps   map[string]bool
	est     map[string]time.Duration
	samples map[string]int

	stats      map[string]*kindStat
	delays     [5]int // kills by delay: <5ms, <20ms, <50ms, <100ms, more
	kills      int
	runs       int
	ops        int
	seq        int
	acked      int            // acknowledged turns, distinct
	ackedSetup int            // of which the setup's
	checks     int            // checks after an operation
	fullChecks int            // of which those of every session
	ackChecks  int            // token checks made (one per turn per look)
	unbound    int            // acknowledged turns of unbound REPLs killed before their autosave
	notes      map[string]int // events worth counting
	violations []violation
	cur        *op
	lastKept   *op  // the check whose store the last kept violation copied
	mustKill   bool // the next run is killed, calibrated or not
	lastFull   int
}

func newHarness(c config, home string) *harness {
	h := &harness{cfg: c, rng: newRand(c.seed), home: home,
		live: map[string]*entry{}, names: map[string]bool{}, torn: map[string]map[int]bool{},
		temps: map[string]bool{}, est: map[string]time.Duration{}, samples: map[string]int{}, stats: map[string]*kindStat{},
		notes: map[string]int{}}
	for _, k := range kindOrder {
		h.stats[k] = &kindStat{}
	}
	return h
}

// env is the environment of a chatcli process: nothing of the harness's
// own (no provider key), the offline provider, the store, a context window
// large enough that no turn compacts, and key/old as the encryption keys.
func (h *harness) env(key, old string) []string {
	e := []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + h.home,
		"TMPDIR=" + os.TempDir(),
		"CHATCLI_HOME=" + h.home,
		"LLM_PROVIDER=offline",
		"CHATCLI_CONTEXT_WINDOW=1000000000",
		"CHATCLI_SESSION_TTL=0",
	}
	if key != "" {
		e = append(e, "CHATCLI_ENCRYPTION_KEY="+key)
	}
	if old != "" {
		e = append(e, "CHATCLI_ENCRYPTION_KEY_OLD="+old)
	}
	return e
}

// chat runs chatcli to completion under the current key.
func (h *harness) chat(stdin string, args ...string) runResult {
	return h.chatEnv(h.env(h.key, ""), stdin, args...)
}

func (h *harness) chatEnv(env []string, stdin string, args ...string) runResult {
	r := runChatcli(h.cfg.bin, args, env, stdin, -1, h.cfg.timeout)
	if h.cur != nil {
		h.cur.extra = append(h.cur.extra, r)
	}
	if r.hung {
		h.violate("3", "a chatcli process run without a kill hung:\n"+r.describe())
	}
	return r
}

// kill runs the operation's chatcli process and kills it after a random
// delay (see delayFor); it counts the run.
func (h *harness) kill(kind string, long bool, env []string, stdin string, args ...string) runResult {
	est := kind
	if long {
		est += "/long"
	}
	// A calibration run is not killed: it measures how long the kind
	// takes (the first two of each, then one in seven), so that the
	// delays span the whole run. Runs that beat their kill would bias
	// the measure toward the fast ones.
	calibrate := (h.samples[est] < 2 || h.rng.IntN(7) == 0) && !h.mustKill
	h.mustKill = false
	d := time.Duration(-1)
	if !calibrate {
		d = h.delayFor(est, kind == kindRekey)
	}
	r := runChatcli(h.cfg.bin, args, env, stdin, d, h.cfg.timeout)
	h.cur.res = r
	h.runs++
	st := h.stats[kind]
	st.runs++
	switch {
	case r.killed:
		h.kills++
		st.kills++
		if long {
			st.longKills++
		}
		st.maxDelay = max(st.maxDelay, d)
		switch {
		case d < 5*time.Millisecond:
			h.delays[0]++
		case d < 20*time.Millisecond:
			h.delays[1]++
		case d < 50*time.Millisecond:
			h.delays[2]++
		case d < 100*time.Millisecond:
			h.delays[3]++
		default:
			h.delays[4]++
		}
	case calibrate:
		st.calibration++
		if r.ok() {
			// the usual duration, as an exponential average
			if old, ok := h.est[est]; ok {
				h.est[est] = (3*old + r.dur) / 4
			} else {
				h.est[est] = r.dur
			}
			h.samples[est]++
		}
	default:
		st.finished++
	}
	if r.hung {
		h.violate("3", "the operation's chatcli process hung:\n"+r.describe())
	}
	if h.cfg.verbose {
		state := "finished " + itoa(r.code)
		if calibrate {
			state = "calibration run, " + state
		}
		if r.killed {
			state = "killed"
		}
		fmt.Fprintf(os.Stderr, "op %d %s %s: delay %v, %s after %v\n", h.cur.n, kind, h.cur.target, d, state, r.dur.Round(time.Microsecond))
	}
	return r
}

// delayFor draws a kill delay for a kind of run: from 0 to 1.2 times its
// usual duration (the average of its calibration runs), at most
// -maxdelay (-rekeymaxdelay for rekey), so that kills land anywhere in it.
func (h *harness) delayFor(est string, rekey bool) time.Duration {
	limit := h.cfg.maxDelay
	if rekey {
		limit = h.cfg.rekeyMaxDelay
	}
	if d, ok := h.est[est]; ok {
		limit = min(limit, d*6/5)
	}
	limit = max(limit, time.Millisecond)
	return time.Duration(h.rng.Int64N(int64(limit)))
}

// token names the i-th prompt of the current operation.
func (h *harness) token(i int) string {
	p := byte('p')
	if h.phase == "encrypted" {
		p = 's'
	}
	return fmt.Sprintf("%c%d-%d", p, h.ops, i)
}

// prompt is a prompt starting with tok, padded for the long session so
// that its journal grows fast and snapshots come often.
func (h *harness) prompt(tok string, long bool, maxPad int) string {
	if !long || h.rng.IntN(10) >= 3 {
		return tok
	}
	return tok + " " + strings.Repeat("lorem ipsum ", (200+h.rng.IntN(maxPad))/12)
}

// setup grows the long session and makes the small named ones, without
// kills.
func (h *harness) setup() {
	h.phase = "setup"
	h.cur = &op{kind: "setup"}
	var b strings.Builder
	b.WriteString("/session attach long\n")
	var toks []string
	for i := range h.cfg.grow {
		t := fmt.Sprintf("g0-%d", i)
		toks = append(toks, t)
		b.WriteString(t + "\n")
	}
	t0 := time.Now()
	r := h.chat(b.String())
	if !r.ok() || replies(r.stdout) != len(toks) {
		fatal(fmt.Errorf("growing the long session failed:\n%s", r.describe()))
	}
	h.live["long"] = &entry{tokens: toks, long: true}
	h.acked += len(toks)
	h.ackedSetup += len(toks)
	for _, name := range []string{"s1", "s2", "s3"} {
		t := fmt.Sprintf("b0-%s", name[1:])
		r := h.chat("", "-p", t, "--session", name)
		if !r.ok() || replies(r.stdout) != 1 {
			fatal(fmt.Errorf("creating session %s failed:\n%s", name, r.describe()))
		}
		h.live[name] = &entry{tokens: []string{t}}
		h.acked++
		h.ackedSetup++
	}
	fmt.Printf("killharness: seed %d, store %s\n", h.cfg.seed, h.home)
	fmt.Printf("setup: session long grown to %d messages in %v (%s)\n", 2*h.cfg.grow,
		time.Since(t0).Round(time.Millisecond), h.sizes("long"))
	h.cur = &op{kind: "setup"}
	h.check(nil, true)
	if len(h.violations) > 0 {
		h.report(0)
		os.Exit(1)
	}
}

// sizes describes a session's file and journal sizes (plaintext phase).
func (h *harness) sizes(name string) string {
	s := statID(filepath.Join(h.home, "sessions", name+".json")).size
	var j int64
	files, _ := filepath.Glob(filepath.Join(h.home, "transcripts", "*.jsonl"))
	for _, f := range files {
		j = max(j, statID(f).size)
	}
	return fmt.Sprintf("file %d KiB, largest journal %d KiB", s>>10, j>>10)
}

// loop runs operations until kills reach n.
func (h *harness) loop(n int) {
	limit := h.runs + 20*(n-h.kills) + 100
	for h.kills < n && h.runs < limit {
		h.step(h.pickKind())
		if h.kills-h.lastFull >= h.cfg.fullEvery {
			h.lastFull = h.kills
			h.cur = &op{n: h.ops, kind: "full check"}
			h.check(nil, true)
		}
		if h.runs%25 == 0 {
			fmt.Fprintf(os.Stderr, "killharness: %s phase: %d kills, %d runs, %d violations\n", h.phase, h.kills, h.runs, len(h.violations))
		}
	}
	if h.kills < n {
		fmt.Fprintf(os.Stderr, "killharness: stopped after %d runs with %d kills (the runs end before their kills)\n", h.runs, h.kills)
	}
}

func (h *harness) pickKind() string {
	total := 0
	for _, k := range kindOrder {
		if k != kindRekey || h.phase == "encrypted" {
			total += weights[k]
		}
	}
	x := h.rng.IntN(total)
	for _, k := range kindOrder {
		if k == kindRekey && h.phase != "encrypted" {
			continue
		}
		if x < weights[k] {
			return k
		}
		x -= weights[k]
	}
	return kindTurnP
}

// sorted returns the names the model holds, sorted.
func (h *harness) sorted() []string {
	names := make([]string, 0, len(h.live))
	for n := range h.live {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// pick chooses a session: the long one with probability longP, otherwise
// any other.
func (h *harness) pick(longP float64) string {
	var others []string
	longName := ""
	for _, n := range h.sorted() {
		if h.live[n].long {
			longName = n
		} else {
			others = append(others, n)
		}
	}
	if longName != "" && (len(others) == 0 || h.rng.Float64() < longP) {
		return longName
	}
	if len(others) == 0 {
		return ""
	}
	return others[h.rng.IntN(len(others))]
}

// step runs one operation of kind and checks the store after it.
func (h *harness) step(kind string) {
	h.ops++
	h.cur = &op{n: h.ops, kind: kind}
	longFile := ""
	for n, e := range h.live {
		if e.long {
			longFile = filepath.Join(h.home, "sessions", n+".json")
		}
	}
	before := statID(longFile)
	var touched []string
	full := false
	switch kind {
	case kindTurnP:
		touched = h.turnP()
	case kindTurnREPL:
		touched = h.turnREPL()
	case kindAutosave:
		touched = h.autosave()
	case kindFork:
		touched = h.fork()
	case kindRename:
		touched = h.rename()
	case kindDelete:
		touched = h.deleteOp(false)
	case kindRestore:
		touched = h.deleteOp(true)
	case kindRekey:
		h.rekey()
		full = true
	}
	if h.cur.res.killed && longFile != "" {
		if after := statID(longFile); after != before && after.size > 0 {
			h.notes["kills after the long session's file was rewritten in the killed run"]++
		}
	}
	h.check(touched, full)
	h.housekeep()
}

// turnP: `chatcli -p PROMPT --session NAME`, acknowledged when it exits 0
// with the reply printed.
func (h *harness) turnP() []string {
	name := h.pick(0.3)
	if name == "" {
		return nil
	}
	e := h.live[name]
	h.cur.target = name
	tok := h.token(0)
	r := h.kill(kindTurnP, e.long, h.env(h.key, ""), "", "-p", h.prompt(tok, e.long, 8000), "--session", name)
	if r.killed {
		h.tear(name, []string{tok}, nil)
	}
	switch {
	case r.ok() && replies(r.stdout) == 1:
		e.tokens = append(e.tokens, tok)
		h.acked++
	case r.ok():
		h.violate("1", "-p exited 0 without printing its reply")
	case !r.killed && !r.hung:
		h.violate("3", "-p failed without a kill")
	}
	return []string{name}
}

// turnREPL: a REPL script bound with /session attach, several prompts;
// each reply line printed completely is an acknowledged turn.
func (h *harness) turnREPL() []string {
	name := h.pick(0.3)
	if name == "" {
		return nil
	}
	e := h.live[name]
	h.cur.target = name
	n := 2 + h.rng.IntN(5)
	if e.long {
		n = 4 + h.rng.IntN(13)
	}
	var b strings.Builder
	b.WriteString("/session attach " + name + "\n")
	var toks []string
	for i := range n {
		t := h.token(i)
		toks = append(toks, t)
		b.WriteString(h.prompt(t, e.long, 6000) + "\n")
	}
	r := h.kill(kindTurnREPL, e.long, h.env(h.key, ""), b.String())
	got, ok := h.ackedPrompts(r, toks)
	if !ok {
		return []string{name}
	}
	if r.killed {
		h.tear(name, toks, got)
	}
	e.tokens = append(e.tokens, got...)
	h.acked += len(got)
	if !r.killed && !r.hung && (!r.ok() || len(got) != n) {
		h.violate("3", "a REPL script failed without a kill")
	}
	return []string{name}
}

// ackedPrompts returns the prompts of a REPL script whose reply was
// printed completely: the first as many as there are replies.
func (h *harness) ackedPrompts(r runResult, toks []string) ([]string, bool) {
	n := replies(r.stdout)
	if n > len(toks) {
		h.violate("1", fmt.Sprintf("%d replies printed for %d prompts", n, len(toks)))
		return nil, false
	}
	return toks[:n], true
}

// autosave: a REPL script with no session; at exit the conversation is
// saved as autosave-*. Killed before that, nothing is saved: its turns
// are counted as unbound, not checked.
func (h *harness) autosave() []string {
	n := 2 + h.rng.IntN(4)
	var b strings.Builder
	var toks []string
	for i := range n {
		t := h.token(i)
		toks = append(toks, t)
		b.WriteString(t + "\n")
	}
	h.cur.target = "(unbound)"
	r := h.kill(kindAutosave, false, h.env(h.key, ""), b.String())
	got, ok := h.ackedPrompts(r, toks)
	if !ok {
		return nil
	}
	list, ok := h.list()
	if !ok {
		return nil
	}
	var fresh []string
	for _, le := range list {
		if strings.HasPrefix(le.Name, "autosave-") && !h.names[le.Name] && h.live[le.Name] == nil {
			fresh = append(fresh, le.Name)
		}
	}
	switch {
	case len(fresh) > 1:
		h.violate("1", fmt.Sprintf("one conversation was autosaved as %d sessions: %v", len(fresh), fresh))
	case len(fresh) == 1:
		h.live[fresh[0]] = &entry{tokens: got, disposable: true, born: h.ops}
		h.acked += len(got)
		h.cur.target = fresh[0]
		if r.killed {
			h.notes["autosaves written before the kill"]++
		}
	case r.ok():
		h.violate("1", "a REPL script with no session exited 0 but no autosave appeared")
	case r.killed:
		h.unbound += len(got)
	}
	if !r.killed && !r.hung && (!r.ok() || len(got) != n) {
		h.violate("3", "a REPL script failed without a kill")
	}
	return fresh
}

// fork: `session fork SRC DST`; DST, when it exists, holds SRC's turns.
func (h *harness) fork() []string {
	src := h.pick(0.04)
	if src == "" {
		return nil
	}
	h.seq++
	dst := fmt.Sprintf("f%d", h.seq)
	h.cur.target, h.cur.src = src+" → "+dst, src
	r := h.kill(kindFork, h.live[src].long, h.env(h.key, ""), "", "session", "fork", src, dst)
	list, ok := h.list()
	if !ok {
		return nil
	}
	exists := hasName(list, dst)
	switch {
	case exists:
		c := h.live[src].clone()
		c.disposable, c.born = true, h.ops
		h.live[dst] = c
	case r.ok():
		h.violate("2", "fork exited 0 but "+dst+" does not exist")
	case !r.killed && !r.hung:
		h.violate("3", "fork failed without a kill")
	}
	return []string{src, dst}
}

// rename: `session rename OLD NEW`; the session is under OLD or NEW after.
func (h *harness) rename() []string {
	src := h.pick(0.2)
	if src == "" {
		return nil
	}
	h.seq++
	dst := fmt.Sprintf("r%d", h.seq)
	e := h.live[src]
	h.cur.target = src + " → " + dst
	r := h.kill(kindRename, e.long, h.env(h.key, ""), "", "session", "rename", src, dst)
	list, ok := h.list()
	if !ok {
		return nil
	}
	atOld, atNew := hasName(list, src), hasName(list, dst)
	switch {
	case atOld && atNew:
		h.notes["renames killed with the session under both names"]++
		c := e.clone()
		c.disposable, c.born = true, h.ops
		h.live[dst] = c
	case atNew:
		delete(h.live, src)
		h.live[dst] = e
	case atOld:
		if r.ok() {
			h.violate("2", "rename exited 0 but the session is still under "+src+" only")
		}
	default:
		h.violate("2", fmt.Sprintf("session %s is under neither %s nor %s (trash: %d copies of each)", src, src, dst,
			trashCounts(h.home)[src]+trashCounts(h.home)[dst]))
		delete(h.live, src)
	}
	if !r.killed && !r.hung && !r.ok() {
		h.violate("3", "rename failed without a kill")
	}
	return []string{src, dst}
}

// deleteOp: `session delete NAME --yes` killed, then (when the session is
// only in the trash) `session restore NAME` to completion; with
// killRestore, the delete runs to completion and the restore is killed.
// Either way the session must be live, or in the trash, after the killed
// process, and live with every turn after the restore.
func (h *harness) deleteOp(killRestore bool) []string {
	name := h.pick(0.2)
	if name == "" {
		return nil
	}
	e := h.live[name]
	h.cur.target = name
	env := h.env(h.key, "")
	trashed := trashCounts(h.home)[name]
	kind := kindDelete
	if killRestore {
		kind = kindRestore
		d := h.chat("", "session", "delete", name, "--yes")
		if !d.ok() {
			h.violate("3", "session delete failed without a kill:\n"+d.describe())
			return []string{name}
		}
		if trashCounts(h.home)[name] != trashed+1 {
			h.violate("2", "session delete exited 0 but no new copy is in the trash")
		}
		trashed = trashCounts(h.home)[name]
		h.kill(kind, e.long, env, "", "session", "restore", name)
	} else {
		h.kill(kind, e.long, env, "", "session", "delete", name, "--yes")
	}
	r := h.cur.res
	list, ok := h.list()
	if !ok {
		return nil
	}
	isLive, inTrash := hasName(list, name), trashCounts(h.home)[name]
	switch {
	case !killRestore && r.ok() && (isLive || inTrash != trashed+1):
		h.violate("2", fmt.Sprintf("delete exited 0 but the session is live=%v with %d trashed copies (was %d)", isLive, inTrash, trashed))
	case killRestore && r.ok() && (!isLive || inTrash != trashed-1):
		h.violate("2", fmt.Sprintf("restore exited 0 but the session is live=%v with %d trashed copies (was %d)", isLive, inTrash, trashed))
	case !isLive && inTrash == 0:
		h.violate("2", "session "+name+" is neither live nor in the trash")
		delete(h.live, name)
		return nil
	case !isLive && !killRestore && inTrash <= trashed:
		h.violate("2", "session "+name+" is not live and no new copy of it is in the trash")
	}
	if isLive && inTrash > 0 && r.killed {
		h.notes["deletes/restores killed with the session both live and in the trash"]++
	}
	if !r.killed && !r.hung && !r.ok() {
		h.violate("3", kind+" failed without a kill")
	}
	if !isLive {
		rr := h.chat("", "session", "restore", name)
		if !rr.ok() {
			h.violate("2", "session "+name+" is in the trash but restore fails:\n"+rr.describe())
			delete(h.live, name)
			return nil
		}
		h.notes["sessions restored after the kill"]++
	}
	return []string{name}
}

// rekey: `storage rekey` to a fresh key (the first one encrypts the
// plaintext store), killed; then every file must open with the old key or
// the new one; then it is run again to finish.
func (h *harness) rekey() {
	old, key := h.key, newKey()
	h.cur.target = "store"
	if old == "" {
		h.cur.target = "plaintext store"
	}
	env := h.env(key, old)
	h.mustKill = old == "" // the one rekey of the plaintext store
	r := h.kill(kindRekey, false, env, "", "storage", "rekey", "--json")
	if r.killed || r.hung {
		if old == "" {
			rep, code := h.verify(key)
			h.judgeVerify(rep, code, "verify with the new key after a killed rekey of the plaintext store")
		} else {
			h.bothKeys(old, key)
		}
		r = h.chatEnv(env, "", "storage", "rekey", "--json")
		h.notes["rekeys finished by a second run"]++
	}
	var rep rekeyReport
	if err := json.Unmarshal(r.stdout, &rep); !r.ok() || err != nil || len(rep.Failed) > 0 {
		h.violate("3", "storage rekey did not finish cleanly:\n"+r.describe())
	}
	if rep.DamagedKept > 0 {
		h.notes["damaged (torn) journal lines kept by rekey"] += rep.DamagedKept
	}
	h.key = key
	h.keys++
}

// bothKeys checks a store a rekey from old to key was killed in: every
// file opens with one of them.
func (h *harness) bothKeys(old, key string) {
	repNew, codeNew := h.verify(key)
	repOld, codeOld := h.verify(old)
	if codeNew != 0 && codeNew != 4 && codeNew != 6 || codeOld != 0 && codeOld != 4 && codeOld != 6 {
		h.violate("3", fmt.Sprintf("storage verify exit statuses %d (new key) and %d (old key) after a killed rekey", codeNew, codeOld))
		return
	}
	// fails maps each file that does not open with a key to why. A session
	// whose own file opened but whose journal did not (the journal is
	// still under the other key) is a failure of the journal's file.
	fails := func(rep verifyReport) map[string]string {
		m := map[string]string{}
		for _, p := range rep.Problems {
			if lineDamage(p) {
				continue // damaged lines: judged once the rekey is finished
			}
			if j := journalOf(p.Error); j != "" && p.Kind != "journal" {
				m[j] = p.Verdict + " (through session " + filepath.Base(p.Path) + "): " + p.Error
				continue
			}
			m[p.Path] = p.Verdict + ": " + p.Error
		}
		return m
	}
	fNew, fOld := fails(repNew), fails(repOld)
	for p, why := range fNew {
		if o, bad := fOld[p]; bad {
			h.violate("3", fmt.Sprintf("after a killed rekey, %s opens with neither key:\n  new key: %s\n  old key: %s", p, why, o))
		}
	}
	if len(fNew) > 0 {
		h.notes["killed rekeys that left files under the old key"]++
	}
}

// journalOf returns the journal a session's load failed on, as verify
// words it ("session: journal PATH: …"), or "".
func journalOf(err string) string {
	m := journalErr.FindStringSubmatch(err)
	if m == nil {
		return ""
	}
	return m[1]
}

var journalErr = regexp.MustCompile(`session: journal (\S+\.jsonl): `)

func hasName(list []listEntry, name string) bool {
	for _, e := range list {
		if e.Name == name {
			return true
		}
	}
	return false
}

// housekeep deletes (to the trash, without a kill) the oldest forks and
// autosaves beyond maxDisposable, so the store stays small.
func (h *harness) housekeep() {
	var disp []string
	for _, n := range h.sorted() {
		if h.live[n].disposable {
			disp = append(disp, n)
		}
	}
	if len(disp) <= maxDisposable {
		return
	}
	sort.SliceStable(disp, func(i, j int) bool { return h.live[disp[i]].born < h.live[disp[j]].born })
	for _, n := range disp[:len(disp)-maxDisposable] {
		r := h.chat("", "session", "delete", n, "--yes")
		if !r.ok() {
			h.violate("3", "session delete (housekeeping) failed without a kill:\n"+r.describe())
		}
		delete(h.live, n)
		delete(h.names, n)
	}
}

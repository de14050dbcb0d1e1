// Command killharness kills chatcli processes with SIGKILL at random moments
// while they work on a store, and checks after every kill that the store
// kept its promises. bench/kill.sh builds chatcli and runs it; see there
// for how to run it and what it prints.
//
// One store ($CHATCLI_HOME, a fresh temporary folder) goes through two
// phases. The plaintext phase grows one session ("long") to a few thousand
// messages first, so that its file, the snapshot of its journal, is
// rewritten during the kills (a snapshot is taken when the journal's tail
// passes half the file, and at exit), then runs operations each of which
// is one chatcli process killed after a random delay: turns with
// `-p --session`, REPL scripts bound with /session attach, REPL scripts
// with no session (saved as an autosave at exit), `session fork`,
// `session rename`, `session delete --yes` (then restored), `session
// restore` (after a delete). The encrypted phase encrypts the same store
// with `storage rekey` (CHATCLI_ENCRYPTION_KEY, a fresh random key) and
// goes on with the same operations under the key, plus rekeys to a new
// key (CHATCLI_ENCRYPTION_KEY_OLD the current one), each killed too and
// then run again to finish, as chatcli's help says.
//
// After every operation the harness checks, with chatcli's own commands
// (session list --json, session show --json, session export jsonl,
// storage verify --json) and by reading the folders:
//
//  1. every acknowledged turn (a -p that exited 0 with its reply printed,
//     a REPL line whose reply line was printed completely before the kill)
//     is in the session holding it now (renamed, forked, restored from the
//     trash: the harness follows it);
//  2. a session being renamed, trashed or restored when killed is under
//     its old name, its new name or in $CHATCLI_HOME/trash;
//  3. every file loads: no unreadable entry in the listing, show works,
//     and storage verify reports no damaged session and no damaged journal
//     line other than a torn last line (the one a kill during an append
//     leaves; later appends keep it in place, so a damaged line the harness
//     saw as the last line is allowed from then on; a fork that copies
//     such a line into the middle of its new journal is reported, or with
//     -allowinherited counted).
//
// Kill delays are drawn from 0 to 1.2 times the usual duration of the
// operation kind (on the long session apart), measured by calibration
// runs that are not killed (the first two of each kind, then one in
// seven), at most -maxdelay. A kill rarely lands inside the few
// microseconds of a journal write(2), so in the plaintext phase a kill
// during a turn is followed, with probability -tear, by what such a kill
// leaves: the journal cut inside its last batch, when that batch is an
// unacknowledged prompt's and the session file does not cover it.
package main

import (
	"crypto/rand"
	"encoding/base64"
	"flag"
	"fmt"
	mrand "math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"time"
)

// config is the harness's settings (its flags).
type config struct {
	bin           string
	kills         int
	seed          uint64
	maxDelay      time.Duration
	rekeyMaxDelay time.Duration
	grow          int
	sealedShare   float64
	fullEvery     int
	keep          string
	keepMax       int
	keepHome      bool
	timeout       time.Duration
	tear          float64
	// allowInherited: a torn line a fork copied into its journal is
	// counted, not a violation.
	allowInherited bool
	verbose        bool
}

func main() {
	var c config
	flag.StringVar(&c.bin, "chatcli", "", "the chatcli binary to run (required; bench/kill.sh builds it)")
	flag.IntVar(&c.kills, "kills", 300, "SIGKILLs to deliver (runs that exit before their kill do not count)")
	flag.Uint64Var(&c.seed, "seed", 0, "random seed (0: from the clock; the seed used is printed)")
	flag.DurationVar(&c.maxDelay, "maxdelay", 150*time.Millisecond, "longest kill delay; each operation kind's delay is drawn from 0 to min(this, 1.2 × its usual duration)")
	flag.DurationVar(&c.rekeyMaxDelay, "rekeymaxdelay", 500*time.Millisecond, "longest kill delay of storage rekey (it rewrites the whole store)")
	flag.IntVar(&c.grow, "grow", 1500, "turns the long session is grown by first (two messages each)")
	flag.Float64Var(&c.sealedShare, "sealed", 0.4, "share of the kills made in the encrypted phase (0: none, no rekey)")
	flag.IntVar(&c.fullEvery, "full", 25, "every this many kills, show and export every session (the last check always does)")
	flag.StringVar(&c.keep, "keep", "", "folder for the files kept on a violation (default: a new killharness-keep-* folder in the temporary folder)")
	flag.IntVar(&c.keepMax, "keepmax", 10, "violations whose store is copied into the keep folder (the others are only described)")
	flag.BoolVar(&c.keepHome, "keephome", false, "keep the store at the end even without a violation")
	flag.DurationVar(&c.timeout, "timeout", 2*time.Minute, "longest run of one chatcli process before it counts as hung")
	flag.Float64Var(&c.tear, "tear", 0.5, "plaintext phase: chance that a kill during a turn is followed by cutting the journal inside its last line, when that line is an unacknowledged prompt's record the session file does not cover (what a kill inside the journal's write leaves); 0: never")
	flag.BoolVar(&c.allowInherited, "allowinherited", false, "count a torn journal line that a fork copied, byte for byte, into the middle of its new journal instead of reporting it (invariant 3)")
	flag.BoolVar(&c.verbose, "v", false, "print every operation")
	flag.Parse()
	if c.bin == "" || c.kills < 1 || c.maxDelay <= 0 || c.rekeyMaxDelay <= 0 || c.sealedShare < 0 || c.sealedShare > 1 || c.tear < 0 || c.tear > 1 || flag.NArg() > 0 {
		flag.Usage()
		os.Exit(2)
	}
	bin, err := filepath.Abs(c.bin)
	if err != nil {
		fatal(err)
	}
	c.bin = bin
	if c.seed == 0 {
		c.seed = uint64(time.Now().UnixNano())
	}
	if c.keep == "" {
		c.keep = filepath.Join(os.TempDir(), "killharness-keep-"+time.Now().UTC().Format("20060102-150405"))
	}
	home, err := os.MkdirTemp("", "killharness-home-")
	if err != nil {
		fatal(err)
	}
	h := newHarness(c, home)
	start := time.Now()
	h.setup()
	plainKills := c.kills - int(float64(c.kills)*c.sealedShare)
	h.phase = "plaintext"
	h.loop(plainKills)
	if plainKills < c.kills {
		h.phase = "encrypted"
		h.step(kindRekey) // plaintext store → encrypted store
		h.loop(c.kills)
	}
	h.finalCheck()
	h.report(time.Since(start))
	if len(h.violations) > 0 || c.keepHome {
		fmt.Printf("store kept: %s\n", home)
		if h.key != "" {
			fmt.Printf("its CHATCLI_ENCRYPTION_KEY: %s\n", h.key)
		}
	} else {
		os.RemoveAll(home)
	}
	if len(h.violations) > 0 {
		os.Exit(1)
	}
}

// fatal ends the harness when it cannot run at all (exit 2).
func fatal(err error) {
	fmt.Fprintln(os.Stderr, "killharness:", err)
	os.Exit(2)
}

// newKey returns a fresh CHATCLI_ENCRYPTION_KEY: 32 bytes from crypto/rand
// in base64.
func newKey() string {
	b := make([]byte, 32)
	rand.Read(b)
	return base64.StdEncoding.EncodeToString(b)
}

func itoa(n int) string { return strconv.Itoa(n) }

// newRand is the harness's random source for seed.
func newRand(seed uint64) *mrand.Rand { return mrand.New(mrand.NewPCG(seed, seed^0x9e3779b97f4a7c15)) }

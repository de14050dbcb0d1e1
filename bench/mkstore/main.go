// Command mkstore builds the stores of the bench scripts under -home: the
// store bench/list.sh lists (bench.EngineStore, -n sessions), or with
// -long NAME one long session (bench.LongSession, -messages and -bytes),
// the one bench/show.sh shows; -live NAME prints the heap bytes and the
// message count of session NAME once loaded (bench.LiveHistoryBytes);
// -search builds -n distinct sessions of -session-bytes each from prompts
// of -prompt-bytes (bench.SearchStore), the stores bench/search.sh searches;
// -word N prints the word of rank N of their vocabulary.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/chatcli/chatcli/bench"
)

func main() {
	home := flag.String("home", "", "the store's folder, as CHATCLI_HOME (required; it must hold no sessions)")
	n := flag.Int("n", 2000, "how many sessions")
	long := flag.String("long", "", "build one long session of this name instead")
	msgs := flag.Int("messages", 200000, "with -long: the messages it has at least")
	nbytes := flag.Int("bytes", 1<<30, "with -long: the bytes of prompts it has at least")
	live := flag.String("live", "", "print the heap bytes and messages of this session once loaded")
	searchStore := flag.Bool("search", false, "build -n distinct sessions of -session-bytes for bench/search.sh")
	sessionBytes := flag.Int("session-bytes", 5<<20, "with -search: the bytes of prompts of each session")
	promptBytes := flag.Int("prompt-bytes", 16<<10, "with -search: the bytes of each prompt")
	word := flag.Int("word", -1, "print the word of this rank (0: most frequent) of -search's vocabulary and exit")
	flag.Parse()
	if *word >= 0 {
		fmt.Println(bench.SearchWord(*word))
		return
	}
	if *home == "" || *n < 1 {
		flag.Usage()
		os.Exit(2)
	}
	switch {
	case *live != "":
		b, m, err := bench.LiveHistoryBytes(*home, *live)
		if err != nil {
			fmt.Fprintln(os.Stderr, "mkstore:", err)
			os.Exit(1)
		}
		fmt.Println(b, m)
		return
	case *searchStore:
		total, err := bench.SearchStore(*home, *n, *sessionBytes, *promptBytes, func(i int) { fmt.Fprintf(os.Stderr, "\r%d sessions", i) })
		if err != nil {
			fmt.Fprintln(os.Stderr, "mkstore:", err)
			os.Exit(1)
		}
		fmt.Fprintf(os.Stderr, "\n%d sessions, %d bytes of prompts under %s\n", *n, total, *home)
		return
	case *long != "":
		b, err := bench.LongSession(*home, *long, *msgs, *nbytes, func(m int) { fmt.Fprintf(os.Stderr, "\r%d messages", m) })
		if err != nil {
			fmt.Fprintln(os.Stderr, "mkstore:", err)
			os.Exit(1)
		}
		fmt.Fprintf(os.Stderr, "\nsession %s: %d bytes under %s\n", *long, b, *home)
		return
	}
	size, err := bench.EngineStore(*home, *n)
	if err != nil {
		fmt.Fprintln(os.Stderr, "mkstore:", err)
		os.Exit(1)
	}
	fmt.Printf("%d sessions of %d bytes under %s\n", *n, size, *home)
}

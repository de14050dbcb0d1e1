// Command mkstore builds the store bench/list.sh lists: bench.EngineStore
// under -home, -n sessions.
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
	flag.Parse()
	if *home == "" || *n < 1 {
		flag.Usage()
		os.Exit(2)
	}
	size, err := bench.EngineStore(*home, *n)
	if err != nil {
		fmt.Fprintln(os.Stderr, "mkstore:", err)
		os.Exit(1)
	}
	fmt.Printf("%d sessions of %d bytes under %s\n", *n, size, *home)
}

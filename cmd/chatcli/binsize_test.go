package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestTemplateExecutionIsNotLinked: nothing in the binary may execute a
// text/template (a cobra usage or help template, glamour): its method
// calls by name make the linker keep every exported method of every
// package, which took the stripped binary from 45 MB to 83 MB
// (bench/binsize.sh checks the budget itself).
func TestTemplateExecutionIsNotLinked(t *testing.T) {
	out, err := exec.Command("go", "tool", "nm", binary).Output()
	if err != nil {
		t.Fatalf("go tool nm: %v", err)
	}
	if strings.Contains(string(out), "text/template.(*state).evalCall") {
		t.Fatal("the binary links text/template's execution; use Go functions (cobra's SetUsageFunc, SetHelpFunc) instead of templates")
	}
}

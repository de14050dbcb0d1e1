package main

import (
	"bytes"
	"context"
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/spf13/cobra"
)

// `chatcli --help` names every setting of README's Settings table, so a
// person who reads only the help still learns that sessions can be encrypted;
// it lists README's exit codes too.
func TestRootHelpNamesEverySettingOfTheReadme(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(readme), "\n## Settings\n")
	if !ok {
		t.Fatal("README.md has no Settings section")
	}
	table, _, _ = strings.Cut(table, "\n## ")
	vars := regexp.MustCompile("(?m)^\\| `([A-Z_]+)` \\|").FindAllStringSubmatch(table, -1)
	if len(vars) < 10 {
		t.Fatalf("found only %d settings in README's table", len(vars))
	}
	var out bytes.Buffer
	f := &factory{streams: &ioStreams{In: strings.NewReader(""), Out: &out, Err: &out},
		getenv: func(string) string { return "" }}
	defer f.close()
	cmd := newRootCmd(f, nil)
	cmd.SetArgs([]string{"--help"})
	if err := cmd.ExecuteContext(context.Background()); err != nil {
		t.Fatal(err)
	}
	help := out.String()
	_, codes, ok := strings.Cut(string(readme), "\n## Exit codes\n")
	if !ok {
		t.Fatal("README.md has no Exit codes section")
	}
	_, helpCodes, ok := strings.Cut(help, "Exit codes:")
	if !ok {
		t.Fatal("chatcli --help has no Exit codes paragraph")
	}
	codeList := regexp.MustCompile(`(?m)(?:^|· )(\d+) `).FindAllStringSubmatch(strings.TrimSpace(codes), -1)
	if len(codeList) < 7 {
		t.Fatalf("found only %d exit codes in README", len(codeList))
	}
	for _, c := range codeList {
		if !regexp.MustCompile(`\b` + c[1] + ` `).MatchString(helpCodes) {
			t.Errorf("chatcli --help does not list exit code %s", c[1])
		}
	}
	for _, v := range vars {
		if !regexp.MustCompile(`\b` + v[1] + `\b`).MatchString(help) {
			t.Errorf("chatcli --help does not name %s", v[1])
		}
	}
}

// The --json help of `session list` names every key the JSON carries.
func TestSessionListJSONHelpNamesEveryKey(t *testing.T) {
	var out bytes.Buffer
	f := &factory{streams: &ioStreams{In: strings.NewReader(""), Out: &out, Err: &out},
		getenv: func(string) string { return "" }}
	defer f.close()
	var flagHelp string
	for _, c := range newSessionCmd(f).Commands() {
		if c.Name() == "list" {
			flagHelp = c.Flags().Lookup("json").Usage
		}
	}
	if flagHelp == "" {
		t.Fatal("session list has no --json flag")
	}
	typ := reflect.TypeOf(listEntry{})
	for i := range typ.NumField() {
		key, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
		if !regexp.MustCompile(`\b` + key + `\b`).MatchString(flagHelp) {
			t.Errorf("session list --json help %q does not name %q", flagHelp, key)
		}
	}
}

// TestHelpFitsEightyColumns: every command's long help wraps at 80
// columns and its short help says more than its name.
func TestHelpFitsEightyColumns(t *testing.T) {
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for i, line := range strings.Split(c.Long, "\n") {
			if n := utf8.RuneCountInString(line); n > 80 {
				t.Errorf("%s --help: line %d has %d columns: %q", c.CommandPath(), i+1, n, line)
			}
		}
		if len(strings.Fields(c.Short)) < 3 {
			t.Errorf("%s: short help %q says too little", c.CommandPath(), c.Short)
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(newRootCmd(&factory{streams: &ioStreams{}, getenv: func(string) string { return "" }}, nil))
}

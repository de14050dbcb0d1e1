package tools

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/chatcli/chatcli/internal/message"
)

// newBox returns a Box on a fresh workspace; o.Root is filled in unless set.
func newBox(t *testing.T, o Options) *Box {
	t.Helper()
	if o.Root == "" {
		o.Root = t.TempDir()
	}
	b, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

// autoBox is a Box that never asks.
func autoBox(t *testing.T) *Box { return newBox(t, Options{AutoExec: true}) }

// run calls tool with args (a JSON string as is, anything else marshalled)
// in coder mode.
func run(t *testing.T, b *Box, tool string, args any) (string, bool) {
	t.Helper()
	return runMode(t, b, ModeCoder, tool, args)
}

func runMode(t *testing.T, b *Box, mode, tool string, args any) (string, bool) {
	t.Helper()
	raw, ok := args.(string)
	if !ok {
		data, err := json.Marshal(args)
		if err != nil {
			t.Fatal(err)
		}
		raw = string(data)
	}
	return b.Run(context.Background(), mode, message.ToolCall{ID: "c1", Name: tool, Arguments: raw})
}

// put writes files (path → content) under dir, creating directories.
func put(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for p, c := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func readString(t *testing.T, p string) string {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

package reference

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// MaxFileBytes caps the text @file inlines (256 KiB).
const MaxFileBytes = 256 << 10

// file reads path (relative to Dir) as text.
func (x *Expander) file(path string) (string, error) {
	if !filepath.IsAbs(path) {
		path = filepath.Join(x.Dir, path)
	}
	fi, err := os.Stat(path)
	if err != nil {
		return "", err
	}
	if !fi.Mode().IsRegular() {
		return "", fmt.Errorf("%s is not a regular file", path)
	}
	if fi.Size() > MaxFileBytes {
		return "", fmt.Errorf("%s has %d bytes, over the %d @file inlines; attach it with /context create instead", path, fi.Size(), MaxFileBytes)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	if bytes.IndexByte(data, 0) >= 0 {
		return "", fmt.Errorf("%s is not a text file", path)
	}
	return strings.ToValidUTF8(string(data), "\uFFFD"), nil
}

// git describes the repository of Dir.
func (x *Expander) git(ctx context.Context) (string, error) {
	var b strings.Builder
	for _, args := range [][]string{{"rev-parse", "--abbrev-ref", "HEAD"}, {"status", "--short"}, {"log", "--oneline", "-10"}} {
		cmd := exec.CommandContext(ctx, "git", args...)
		cmd.Dir = x.Dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			return "", fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, bytes.TrimSpace(out))
		}
		fmt.Fprintf(&b, "$ git %s\n%s\n", strings.Join(args, " "), bytes.TrimRight(out, "\n"))
	}
	return b.String(), nil
}

// secretName matches environment names whose values are secrets.
var secretName = regexp.MustCompile(`(?i)(KEY|TOKEN|SECRET|PASS|PASSWORD|PASSWD|CREDENTIAL|AUTH|COOKIE|SESSION|PRIVATE|DSN|CONN)`)

// redactedEnv lists env sorted, values of secret-looking names replaced.
func redactedEnv(env []string) string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		if secretName.MatchString(k) || strings.Contains(v, "://") && strings.Contains(v, "@") {
			v = "[redacted]"
		}
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return strings.Join(out, "\n")
}

// tail is the last n lines of path.
func tail(path string, n int) (string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	lines := strings.Split(strings.TrimRight(strings.ToValidUTF8(string(data), "\uFFFD"), "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n"), nil
}

// sessions quotes the best cross-session hits for query.
func (x *Expander) sessions(query string) (string, error) {
	if query == "" {
		return "", fmt.Errorf("@session needs a query")
	}
	hits, err := x.Search(query)
	if err != nil {
		return "", err
	}
	if len(hits) == 0 {
		return "(no message of any session matches)", nil
	}
	var b strings.Builder
	for _, h := range hits {
		fmt.Fprintf(&b, "[%s] %s\n", h[0], h[1])
	}
	return b.String(), nil
}

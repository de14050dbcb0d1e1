package reference

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/chatcli/chatcli/internal/i18n"
	"github.com/chatcli/chatcli/internal/message"
)

// MaxFileBytes caps the text @file inlines (256 KiB); MaxImageBytes the
// image it attaches (5 MiB, within what the providers accept).
const (
	MaxFileBytes  = 256 << 10
	MaxImageBytes = 5 << 20
)

// imageTypes are the image formats @file attaches as images (those the
// OpenAI, Anthropic and Gemini APIs take), by the type
// http.DetectContentType sniffs (WHATWG MIME Sniffing).
var imageTypes = map[string]bool{"image/png": true, "image/jpeg": true, "image/gif": true, "image/webp": true}

// file reads path (relative to Dir): its text, or the image it holds.
func (x *Expander) file(path string) (string, *message.Image, error) {
	full := path
	if !filepath.IsAbs(full) {
		full = filepath.Join(x.Dir, full)
	}
	fi, err := os.Stat(full)
	if err != nil {
		return "", nil, err
	}
	if !fi.Mode().IsRegular() {
		return "", nil, i18n.Errorf("%s is not a regular file", full)
	}
	if fi.Size() > MaxImageBytes {
		return "", nil, i18n.Errorf("%s has %d bytes, over what @file takes; attach text with /context create instead", full, fi.Size())
	}
	data, err := os.ReadFile(full)
	if err != nil {
		return "", nil, err
	}
	if t := http.DetectContentType(data); imageTypes[t] {
		return "", &message.Image{MediaType: t, Data: base64.StdEncoding.EncodeToString(data), FileName: filepath.Base(full)}, nil
	}
	if len(data) > MaxFileBytes {
		return "", nil, i18n.Errorf("%s has %d bytes, over the %d @file inlines; attach it with /context create instead", full, len(data), MaxFileBytes)
	}
	if bytes.IndexByte(data, 0) >= 0 {
		return "", nil, i18n.Errorf("%s is not a text file", full)
	}
	return strings.ToValidUTF8(string(data), "\uFFFD"), nil, nil
}

// git describes the repository of Dir.
func (x *Expander) git(ctx context.Context) (string, error) {
	var b strings.Builder
	for _, args := range [][]string{{"rev-parse", "--abbrev-ref", "HEAD"}, {"status", "--short"}, {"log", "--oneline", "-10"}} {
		cmd := exec.CommandContext(ctx, "git", args...)
		cmd.Dir = x.Dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			return "", i18n.Errorf("git %s: %v: %s", strings.Join(args, " "), err, bytes.TrimSpace(out))
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
		return "", i18n.Errorf("@session needs a query")
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

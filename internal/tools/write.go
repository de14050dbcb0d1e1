package tools

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strings"

	"github.com/chatcli/chatcli/internal/atomicfile"
)

// newFileMode is the mode of a file write_file creates.
const newFileMode fs.FileMode = 0o644

type writeArgs struct {
	Path    string  `json:"path"`
	Content *string `json:"content"`
}

func (b *Box) writeFile(ctx context.Context, raw []byte) (string, error) {
	var a writeArgs
	if err := decode("write_file", raw, &a); err != nil {
		return "", err
	}
	if a.Path == "" || a.Content == nil {
		return "", errors.New("write_file needs a path and a content")
	}
	t, err := b.resolve(a.Path)
	if err != nil {
		return "", err
	}
	if t.rel == "." {
		return "", errors.New("write_file needs a file path, not the workspace root")
	}
	old, err := b.existing(t)
	if err != nil {
		return "", err
	}
	n := len(*a.Content)
	what := "new file"
	if old != nil {
		what = "replaces " + size(int(old.Size()))
	}
	act := Action{Tool: "write_file", Path: t.abs, Summary: fmt.Sprintf("write %s (%s, %s)", t.rel, size(n), what)}
	note, err := b.change(ctx, act, t, old, []byte(*a.Content))
	if err != nil {
		return "", err
	}
	if old == nil {
		return fmt.Sprintf("created %s (%d bytes)%s", t.rel, n, note), nil
	}
	return fmt.Sprintf("wrote %s (%d bytes, was %d bytes)%s", t.rel, n, old.Size(), note), nil
}

type editArgs struct {
	Path       string  `json:"path"`
	OldString  *string `json:"old_string"`
	NewString  *string `json:"new_string"`
	ReplaceAll bool    `json:"replace_all"`
}

func (b *Box) editFile(ctx context.Context, raw []byte) (string, error) {
	var a editArgs
	if err := decode("edit_file", raw, &a); err != nil {
		return "", err
	}
	if a.Path == "" || a.OldString == nil || a.NewString == nil {
		return "", errors.New("edit_file needs a path, an old_string and a new_string")
	}
	oldS, newS := *a.OldString, *a.NewString
	if oldS == "" {
		return "", errors.New("old_string is empty; to create or replace a whole file use write_file")
	}
	if oldS == newS {
		return "", errors.New("old_string and new_string are the same; nothing to change")
	}
	t, err := b.resolve(a.Path)
	if err != nil {
		return "", err
	}
	old, err := b.existing(t)
	if err != nil {
		return "", err
	}
	if old == nil {
		return "", fmt.Errorf("%s does not exist; use write_file to create it", t.rel)
	}
	data, err := b.fsRoot.ReadFile(t.rel)
	if err != nil {
		return "", err
	}
	text := string(data)
	count := strings.Count(text, oldS)
	switch {
	case count == 0:
		return "", fmt.Errorf("old_string was not found in %s (0 matches); read the file and copy the text exactly, whitespace included", t.rel)
	case count > 1 && !a.ReplaceAll:
		return "", fmt.Errorf("old_string matches %d times in %s; add surrounding lines to make it unique, or set replace_all to replace all %d", count, t.rel, count)
	}
	var updated, how string
	if a.ReplaceAll {
		updated = strings.ReplaceAll(text, oldS, newS)
		how = fmt.Sprintf("replace all %d %s", count, plural(count, "match", "matches"))
	} else {
		updated = strings.Replace(text, oldS, newS, 1)
		how = "replace 1 match"
	}
	act := Action{Tool: "edit_file", Path: t.abs, Summary: fmt.Sprintf("edit %s (%s)", t.rel, how)}
	note, err := b.change(ctx, act, t, old, []byte(updated))
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("edited %s: replaced %d %s%s", t.rel, count, plural(count, "match", "matches"), note), nil
}

// existing returns the FileInfo of the file at t, nil when there is none,
// and an error when t is something a write must not replace (a directory
// or a special file).
func (b *Box) existing(t target) (fs.FileInfo, error) {
	fi, err := b.fsRoot.Lstat(t.rel)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if fi.IsDir() {
		return nil, fmt.Errorf("%s is a directory", t.rel)
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file (%s)", t.rel, fi.Mode().Type())
	}
	return fi, nil
}

// change asks permission for act, then replaces the file at t with data
// durably, between the BeforeChange and AfterChange hooks. old is the
// current file (nil: create it, with its parent directories); its mode is
// kept. On a refusal or a failed BeforeChange nothing is touched. Once
// the data has landed the error is nil and note, if not empty, tells of a
// failure that did not stop the change (a failed AfterChange).
func (b *Box) change(ctx context.Context, act Action, t target, old fs.FileInfo, data []byte) (note string, err error) {
	if err := b.permit(ctx, act); err != nil {
		return "", err
	}
	if h := b.opts.Hooks.BeforeChange; h != nil {
		if err := h(t.abs); err != nil {
			return "", fmt.Errorf("%s was not changed: the checkpoint before the change failed: %v", t.rel, err)
		}
	}
	mode := newFileMode
	if old != nil {
		mode = old.Mode().Perm()
	} else if dir := path.Dir(t.rel); dir != "." {
		if err := b.fsRoot.MkdirAll(dir, 0o755); err != nil {
			return "", fmt.Errorf("create the directories of %s: %v", t.rel, err)
		}
	}
	if err := atomicfile.WriteFile(t.abs, data); err != nil {
		return "", fmt.Errorf("%v; %s is unchanged", err, t.rel)
	}
	// atomicfile creates 0600; give the file back its mode.
	if err := os.Chmod(t.abs, mode); err != nil {
		note = fmt.Sprintf(" (warning: its mode could not be set to %v: %v)", mode, err)
	}
	if h := b.opts.Hooks.AfterChange; h != nil {
		if err := h(t.abs); err != nil {
			note += fmt.Sprintf(" (warning: the change landed but the checkpoint after it failed: %v)", err)
		}
	}
	return note, nil
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

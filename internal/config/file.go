package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/chatcli/chatcli/internal/i18n"
)

// ErrConfigFile is wrapped by errors about config.toml; the message names
// the file and the line.
var ErrConfigFile = fmt.Errorf("%w: config file", ErrConfig)

// File is a config.toml: every setting as a top-level key named after its
// environment variable (Key), its value a string, a number or a boolean.
// The environment overrides it.
type File struct {
	Path   string
	values map[string]fileValue // by environment variable
}

type fileValue struct {
	value string
	line  int
}

// FilePath is where the config file is: $XDG_CONFIG_HOME/chatcli/config.toml,
// else $HOME/.config/chatcli/config.toml (the XDG base directory spec); ""
// when neither variable is set (no file is read then).
func FilePath(getenv func(string) string) string {
	if dir := getenv("XDG_CONFIG_HOME"); dir != "" && filepath.IsAbs(dir) {
		return filepath.Join(dir, "chatcli", "config.toml")
	}
	if home := getenv("HOME"); home != "" {
		return filepath.Join(home, ".config", "chatcli", "config.toml")
	}
	return ""
}

// LoadFile reads the config file at path; a missing file (or path "")
// holds no settings. A file that is not TOML, has a key that names no setting, or a
// value that is a table or an array is an error naming path:line.
func LoadFile(path string) (*File, error) {
	f := &File{Path: path, values: map[string]fileValue{}}
	if path == "" {
		return f, nil
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return f, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%w %s: %v", ErrConfigFile, path, err)
	}
	var raw map[string]any
	if _, err := toml.Decode(string(data), &raw); err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return nil, fmt.Errorf("%w %s:%d: %s", ErrConfigFile, path, pe.Position.Line, pe.Message)
		}
		return nil, fmt.Errorf("%w %s: %v", ErrConfigFile, path, err)
	}
	keys := make([]string, 0, len(raw))
	for k := range raw {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		line := keyLine(string(data), k)
		v, ok := variableOf(k)
		if !ok {
			return nil, i18n.Errorf("%w %s:%d: %q names no setting (chatcli config init writes a template of them all)", ErrConfigFile, path, line, k)
		}
		s, ok := scalar(raw[k])
		if !ok {
			return nil, i18n.Errorf("%w %s:%d: %s: want a string, a number or a boolean", ErrConfigFile, path, line, k)
		}
		f.values[v.Name] = fileValue{value: s, line: line}
	}
	return f, nil
}

// scalar returns a TOML value as the text its environment variable would
// hold.
func scalar(v any) (string, bool) {
	switch v := v.(type) {
	case string:
		return v, true
	case int64:
		return strconv.FormatInt(v, 10), true
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64), true
	case bool:
		return strconv.FormatBool(v), true
	}
	return "", false
}

// keyLine is the line (from 1) where key is assigned, or opens a table,
// in a TOML document; 0 when it cannot be told.
func keyLine(doc, key string) int {
	re := regexp.MustCompile(`^\s*(\[\[?\s*)?"?` + regexp.QuoteMeta(key) + `"?\s*(=|\]|\.)`)
	for i, l := range strings.Split(doc, "\n") {
		if re.MatchString(l) {
			return i + 1
		}
	}
	return 0
}

// Getenv returns getenv with the file beneath it: a variable the
// environment leaves unset or empty takes the file's value. A nil File
// adds nothing.
func (f *File) Getenv(getenv func(string) string) func(string) string {
	if f == nil {
		return getenv
	}
	return func(name string) string {
		if v := getenv(name); v != "" {
			return v
		}
		return f.values[name].value
	}
}

// source is where a variable's value comes from: "environment", the
// file's "path:line", or "" for neither.
func (f *File) source(getenv func(string) string, name string) string {
	if getenv(name) != "" {
		return "environment"
	}
	if f != nil {
		if v, ok := f.values[name]; ok {
			return fmt.Sprintf("%s:%d", f.Path, v.line)
		}
	}
	return ""
}

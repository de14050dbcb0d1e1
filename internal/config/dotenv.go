package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/joho/godotenv"
)

// EnvDotenv names the dotenv file to read instead of ./.env, as in ChatCLI.
const EnvDotenv = "CHATCLI_DOTENV"

// Dotenv returns a getenv that takes each variable from the process
// environment (lookup, os.LookupEnv in main) and, when the process does not
// set it, from ChatCLI's dotenv file: the file CHATCLI_DOTENV names (a
// leading ~ is the home directory) or else .env in the working folder dir.
// That is ChatCLI's order (godotenv.Load: a variable already set wins).
// path is the file read, "" when there was none to read. A missing .env is
// no error; a missing CHATCLI_DOTENV file or one that does not parse is an
// error naming it, returned with a getenv that ignores the file, so the
// caller can warn and go on.
func Dotenv(lookup func(string) (string, bool), dir string) (getenv func(string) string, path string, err error) {
	plain := func(k string) string { v, _ := lookup(k); return v }
	explicit, _ := lookup(EnvDotenv)
	path = filepath.Join(dir, ".env")
	if explicit != "" {
		if path, err = expandHome(explicit, plain); err != nil {
			return plain, "", fmt.Errorf("%w: %s=%q: %v", ErrConfig, EnvDotenv, explicit, err)
		}
	}
	vars, err := godotenv.Read(path)
	switch {
	case errors.Is(err, fs.ErrNotExist) && explicit == "":
		return plain, "", nil
	case errors.Is(err, fs.ErrNotExist):
		return plain, "", fmt.Errorf("%w: %s names %s, which does not exist", ErrConfig, EnvDotenv, path)
	case err != nil:
		return plain, "", fmt.Errorf("%w: dotenv file %s ignored: %v", ErrConfig, path, err)
	}
	return func(k string) string {
		if v, ok := lookup(k); ok {
			return v
		}
		return vars[k]
	}, path, nil
}

// expandHome replaces a leading "~" or "~/" of p with the home directory
// (HOME from getenv, else os.UserHomeDir).
func expandHome(p string, getenv func(string) string) (string, error) {
	if p != "~" && !strings.HasPrefix(p, "~/") {
		return p, nil
	}
	home := getenv("HOME")
	if home == "" {
		var err error
		if home, err = os.UserHomeDir(); err != nil {
			return "", err
		}
	}
	return filepath.Join(home, strings.TrimPrefix(p, "~")), nil
}

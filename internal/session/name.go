package session

import (
	"errors"
	"fmt"
	"github.com/chatcli/chatcli/internal/i18n"
	"os"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// MaxNameChars is the longest session name allowed, in characters after
// Unicode NFC normalisation.
const MaxNameChars = 128

// MaxNameBytes is the longest session name allowed, in bytes of UTF-8
// after NFC: file systems allow 255 bytes per file name (NAME_MAX on
// Linux, macOS and Windows), and the longest file name chatcli makes from
// a session name, the temporary file of a trashed copy
// (".<name>.<YYYYMMDD-HHMMSS>-<n>.json.tmp-<up to 10 digits>",
// atomicfile.TempPattern of a trash entry), adds 41 bytes to it. 128
// characters of ASCII fit; 118 x 'é' (236 bytes) or 79 CJK characters (237
// bytes) do not.
const MaxNameBytes = 255 - 41

// ErrInvalidName is wrapped by every name validation error.
var ErrInvalidName = errors.New("session: invalid name")

// errNameRule is NameRule as an error, so that an error line in another
// language says it (command.ErrorLineIn) inside the catalog message.
var errNameRule = errors.New(NameRule)

// NameRule is the sentence shown to people whose name was refused.
const NameRule = "names use letters and digits of any script, '.', '_' and '-', start with a letter or digit, have 1-128 characters and at most 214 bytes in UTF-8, and contain no '..'"

// windowsReserved are device names Windows refuses as file names, with or
// without an extension (Microsoft, "Naming Files, Paths, and Namespaces").
var windowsReserved = map[string]bool{"CON": true, "PRN": true, "AUX": true, "NUL": true,
	"COM1": true, "COM2": true, "COM3": true, "COM4": true, "COM5": true, "COM6": true, "COM7": true, "COM8": true, "COM9": true,
	"LPT1": true, "LPT2": true, "LPT3": true, "LPT4": true, "LPT5": true, "LPT6": true, "LPT7": true, "LPT8": true, "LPT9": true}

// NormalizeName validates a session name and returns its canonical (NFC)
// form. The rules are NameRule: letters (any script, with their combining
// marks) and digits, '.', '_' and '-'; first character a letter or digit;
// 1-128 characters and at most MaxNameBytes bytes; no "..", no trailing '.', no path separator, control
// character or Windows-reserved device name (CON, NUL, COM1, …). Errors wrap
// ErrInvalidName and quote the name.
func NormalizeName(name string) (string, error) {
	bad := func(why i18n.Text) (string, error) {
		return "", i18n.Errorf("%w %q: %s; %v", ErrInvalidName, name, why, errNameRule)
	}
	if name == "" {
		return bad(i18n.Textf("empty"))
	}
	if !utf8.ValidString(name) {
		return bad(i18n.Textf("not valid UTF-8"))
	}
	n := norm.NFC.String(name)
	if utf8.RuneCountInString(n) > MaxNameChars {
		return bad(i18n.Textf("too long"))
	}
	if len(n) > MaxNameBytes {
		return bad(i18n.Textf("too long for the file system (%d bytes in UTF-8)", len(n)))
	}
	if strings.Contains(n, "..") {
		return bad(i18n.Textf("contains '..'"))
	}
	for i, r := range n {
		switch {
		case r == '/' || r == '\\':
			return bad(i18n.Textf("contains a path separator"))
		case unicode.IsSpace(r):
			return bad(i18n.Textf("contains a space"))
		case unicode.IsControl(r):
			return bad(i18n.Textf("contains a control character"))
		case i == 0 && !(unicode.IsLetter(r) || unicode.IsDigit(r)):
			return bad(i18n.Textf("must start with a letter or digit"))
		case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.M, r):
		case r == '.' || r == '_' || r == '-':
		default:
			return bad(i18n.Textf("character %q is not allowed", r))
		}
	}
	if strings.HasSuffix(n, ".") {
		return bad(i18n.Textf("ends with '.'"))
	}
	stem, _, _ := strings.Cut(n, ".")
	if windowsReserved[strings.ToUpper(stem)] {
		return bad(i18n.Textf("is a reserved device name on Windows"))
	}
	return n, nil
}

// chatcliName reports whether name follows ChatCLI's rule for session
// names (diillson/chatcli cli/session_manager.go, validSessionName:
// ^[a-zA-Z0-9][a-zA-Z0-9_\-.]{0,254}$): it allows some names NormalizeName
// refuses (con, nul.txt, a..b, release-v2.).
func chatcliName(name string) bool {
	if len(name) == 0 || len(name) > 255 {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case i > 0 && (c == '_' || c == '-' || c == '.'):
		default:
			return false
		}
	}
	return true
}

// Name returns the name every verb of the store uses for name: its
// NormalizeName form, or name as it is when NormalizeName refuses it but it
// follows ChatCLI's rule and its file exists (a session ChatCLI created),
// so such sessions open, save, rename and delete while new names still
// follow NormalizeName. When no file has the NFC name but one has its NFD
// form (a file name synced from macOS, which writes NFD), that spelling is
// returned: the session opens, saves and deletes under either spelling.
// Errors are NormalizeName's.
func (s *Store) Name(name string) (string, error) {
	n, err := NormalizeName(name)
	if err == nil {
		return s.spelling(n), nil
	}
	if !chatcliName(name) {
		return n, err
	}
	if fi, lerr := os.Lstat(filepath.Join(s.dir, name+fileExt)); lerr == nil && fi.Mode().IsRegular() {
		return name, nil
	}
	return n, err
}

// spelling returns the spelling of the valid NFC name n whose file
// exists: n itself, or else its NFD form when that file exists; n when
// neither does (a new session is named in NFC).
func (s *Store) spelling(n string) string {
	d := norm.NFD.String(n)
	if d == n {
		return n
	}
	if _, err := os.Lstat(filepath.Join(s.dir, n+fileExt)); err == nil {
		return n
	}
	if _, err := os.Lstat(filepath.Join(s.dir, d+fileExt)); err == nil {
		return d
	}
	return n
}

// path maps a session name to its file: the one place every verb gets a path
// from. It validates the name (Name) and checks the result stays inside dir.
func (s *Store) path(name string) (string, string, error) {
	n, err := s.Name(name)
	if err != nil {
		return "", "", err
	}
	p := filepath.Join(s.dir, n+fileExt)
	if filepath.Dir(p) != filepath.Clean(s.dir) {
		return "", "", fmt.Errorf("%w %q: resolves outside the sessions folder", ErrInvalidName, name)
	}
	return n, p, nil
}

package i18n

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"testing"
)

var errKind = errors.New("session: not found")

func TestErrorfIsFmtErrorfInEnglish(t *testing.T) {
	err := Errorf("%w: %q (no file %s)", errKind, "x", "/h/x.json")
	want := fmt.Errorf("%w: %q (no file %s)", errKind, "x", "/h/x.json").Error()
	if err.Error() != want || !errors.Is(err, errKind) {
		t.Fatalf("%q (is %v), want %q wrapping the kind", err, errors.Is(err, errKind), want)
	}
	if got := New(English).Error(err, nil); got != want {
		t.Fatalf("English %q, want %q", got, want)
	}
	wrapped := fmt.Errorf("load: %w", err)
	if !errors.Is(wrapped, errKind) {
		t.Fatal("the kind is lost one wrapper up")
	}
}

func TestErrorSaysEveryLayerInPortuguese(t *testing.T) {
	inner := Errorf("%w: %q (no file %s)", errKind, "x", "/h/x.json")
	outer := Errorf("%w; pick another name (rename never replaces a session)", inner)
	kind := func(e error) string {
		if e == errKind {
			return "sessão não encontrada"
		}
		return e.Error()
	}
	got := New(Portuguese).Error(outer, kind)
	want := `sessão não encontrada: "x" (o arquivo /h/x.json não existe); escolha outro nome (rename nunca substitui uma sessão)`
	if got != want {
		t.Fatalf("%q\nwant %q", got, want)
	}
	// An error that is not the catalog's is left to the caller's function.
	if got := New(Portuguese).Error(errKind, kind); got != "sessão não encontrada" {
		t.Fatalf("%q", got)
	}
}

func TestRewordKeepsTheEnglishText(t *testing.T) {
	_, perr := strconv.Atoi("abc")
	err := Reword(perr, "%q is not a number", "abc")
	if err.Error() != perr.Error() || !errors.Is(err, strconv.ErrSyntax) {
		t.Fatalf("%q, want %q wrapping strconv.ErrSyntax", err, perr)
	}
	if got := New(Portuguese).Error(err, nil); got != `"abc" não é um número` {
		t.Fatalf("%q", got)
	}
}

func TestTextIsAPhraseOfTheCatalog(t *testing.T) {
	err := Errorf("%w: %s needs %s (got %d); see %s --help", errKind, "chatcli x", Textf("SRC and DST"), 1, "chatcli x")
	if want := "session: not found: chatcli x needs SRC and DST (got 1); see chatcli x --help"; err.Error() != want {
		t.Fatalf("%q", err)
	}
	if got, want := New(Portuguese).Error(err, nil), "session: not found: chatcli x espera SRC e DST (recebeu 1); veja chatcli x --help"; got != want {
		t.Fatalf("%q\nwant %q", got, want)
	}
	if Textf("").String() != "" || New(Portuguese).Text(Textf("")) != "" {
		t.Fatal("the empty Text says something")
	}
}

type sayer struct{}

func (sayer) Error() string { return "x (2; each is reported above)" }
func (sayer) Said() error   { return Errorf("%w (%d; each is reported above)", errors.New("x"), 2) }

func TestASayerIsSaidByItsError(t *testing.T) {
	if got := New(Portuguese).Error(sayer{}, nil); got != "x (2; cada uma foi informada acima)" {
		t.Fatalf("%q", got)
	}
}

const budgetNotice = "the conversation is about %d tokens, over the %d-token budget of %s: compacting before sending"

// TestEnglishNumbersAreFormattedAsFmtDoes: English messages are formatted
// as package fmt does (no digit grouping), as chatcli printed them before
// the catalog.
func TestEnglishNumbersAreFormattedAsFmtDoes(t *testing.T) {
	if got, want := New(English).Sprintf(budgetNotice, 4004, 12000, "m"), fmt.Sprintf(budgetNotice, 4004, 12000, "m"); got != want {
		t.Fatalf("English %q, want %q", got, want)
	}
}

// TestPlainPortugueseNumbers: Portuguese groups digits, except from a
// Plain Printer (text inside machine-readable output).
func TestPlainPortugueseNumbers(t *testing.T) {
	key := budgetNotice
	if got := New(Portuguese).Sprintf(key, 4004, 12000, "m"); got != "a conversa tem cerca de 4.004 tokens, acima do orçamento de 12.000 tokens de m: compactando antes de enviar" {
		t.Fatalf("Portuguese %q", got)
	}
	if got := New(Portuguese).Plain().Sprintf(key, 4004, 12000, "m"); got != "a conversa tem cerca de 4004 tokens, acima do orçamento de 12000 tokens de m: compactando antes de enviar" {
		t.Fatalf("plain Portuguese %q", got)
	}
}

func TestJoinIsErrorsJoinSaidLineByLine(t *testing.T) {
	a := Errorf("%w: %q (no file %s)", errKind, "x", "/h/x.json")
	b := errors.New("other")
	j := Join(nil, a, b)
	if want := errors.Join(a, b).Error(); j.Error() != want || !errors.Is(j, errKind) || !errors.Is(j, b) {
		t.Fatalf("%q, want %q wrapping both", j, want)
	}
	if Join(nil, nil) != nil {
		t.Fatal("Join of nils is not nil")
	}
	kind := func(e error) string {
		if e == errKind {
			return "sessão não encontrada"
		}
		return e.Error()
	}
	if got, want := New(Portuguese).Error(j, kind), "sessão não encontrada: \"x\" (o arquivo /h/x.json não existe)\nother"; got != want {
		t.Fatalf("%q\nwant %q", got, want)
	}
}

// TestErrorfBuildsNoCatalog: a package variable made by Errorf (such as
// journal.ErrChecksum) is made at every start of chatcli, so Errorf
// must not build the catalog of counted messages (thousands of
// allocations); the first Error of a counted message does. It runs in a
// process of its own, where nothing has built that catalog yet.
func TestErrorfBuildsNoCatalog(t *testing.T) {
	if os.Getenv("CHATCLI_TEST_FIRST_ERRORF") == "" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestErrorfBuildsNoCatalog$")
		cmd.Env = append(os.Environ(), "CHATCLI_TEST_FIRST_ERRORF=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		return
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	err := Errorf("deleted %d orphan journals", 1)
	runtime.ReadMemStats(&after)
	if n := after.Mallocs - before.Mallocs; n > 100 {
		t.Fatalf("Errorf made %d allocations", n)
	}
	if got := err.Error(); got != "deleted 1 orphan journal" {
		t.Fatalf("%q", got)
	}
}

package main

import (
	"errors"
	"io"

	"github.com/chatcli/chatcli/internal/i18n"
	"github.com/chatcli/chatcli/internal/seal"
	"github.com/chatcli/chatcli/internal/session"
	"github.com/chatcli/chatcli/internal/storefile"
)

// sealForm is the form a store file is sealed in, each opened by a key of
// its own: chatcli's container and journal lines (CHATCLI_ENCRYPTION_KEY
// through seal.ParseKey), or ChatCLI's envelope (seal.ChatCLIMagic, opened
// with ChatCLI's derivation of the same variable or ~/.chatcli/.auth-key).
type sealForm int

const (
	formChatcli sealForm = iota // plaintext, or chatcli's own container
	formChatCLI                 // ChatCLI's envelope
)

// wrongKeyNote ends the error of a file a key did not open while it
// opened others of form, in lang (nil: English).
func wrongKeyNote(lang *i18n.Printer, form sealForm) string {
	if form == formChatCLI {
		return lang.Sprintf(" (ChatCLI's key opens other files in its envelope here: damaged, or encrypted under another key)")
	}
	return lang.Sprintf(" (the key opens other files of this store: damaged, or sealed under another key)")
}

// verifySession loads session file f, decoding what a sealed file holds.
// It returns the problem (nil when it loads, or was removed meanwhile),
// whether the file is sealed, and in which form.
func verifySession(st *session.Store, f storeFile) (*verifyProblem, bool, sealForm) {
	sealed, form := sealKind(f.path)
	_, err := st.LoadFile(f.name, f.path)
	switch {
	case err == nil:
		return nil, sealed, form
	case errors.Is(err, session.ErrNotFound):
		return nil, false, form
	}
	p := &verifyProblem{Path: f.path, Kind: f.kind, Verdict: verdictUnchecked, Error: namingFile(err, f.path), err: err}
	if errors.Is(err, session.ErrCorrupt) || errors.Is(err, seal.ErrCorrupt) {
		p.Verdict = verdictDamaged
	}
	return p, sealed, form
}

// sealKind reports whether the file at path starts as a sealed session
// file does, and in which form.
func sealKind(path string) (bool, sealForm) {
	f, _, err := storefile.Open(path)
	if err != nil {
		return false, formChatcli
	}
	defer f.Close()
	head := make([]byte, max(16, len(seal.ChatCLIMagic)))
	n, _ := io.ReadFull(f, head)
	switch {
	case seal.IsChatCLIEnvelope(head[:n]):
		return true, formChatCLI
	case session.IsSealedFile(head[:n]):
		return true, formChatcli
	}
	return false, formChatcli
}

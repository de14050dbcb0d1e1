package conversation

// Resume opens session name to continue it, returning the name of the
// autosave that kept unsaved live content first ("" when none was needed).
//
// A session a person named is bound as by Load (or, with create, as by
// Attach: a missing one is created at the first turn). A machine-made
// session (IsMachineName: autosave-…, mcp-…) never becomes a live binding
// (DESIGN.md §5): its history is loaded and the conversation continues
// unbound; the next autosave of it holds the whole conversation and moves
// the session it came from to the trash, so one copy is listed and none is
// left under a name retention expires while work goes on in it.
//
// Errors: those of Load and Attach (session.ErrNotFound without create,
// session.ErrInvalidName, …); for a machine-made session, the journal copy
// Detach makes when it fails.
func (e *Engine) Resume(name string, create bool) (autosaved string, err error) {
	n, err := e.store.Name(name)
	if err != nil {
		return "", err
	}
	if !IsMachineName(n) {
		if create {
			autosaved, _, err = e.Attach(n)
			return autosaved, err
		}
		return e.Load(n)
	}
	if autosaved, err = e.Load(n); err != nil {
		return "", err
	}
	e.Detach()
	e.supersedes = n
	return autosaved, nil
}

// Supersedes names the machine-made session the live, unbound conversation
// continues (Resume), which its next autosave replaces; "" when none.
func (e *Engine) Supersedes() string { return e.supersedes }

// supersede moves the machine-made session the conversation continued to
// the trash once autosave name holds the whole conversation.
func (e *Engine) supersede(name string) {
	old := e.supersedes
	e.supersedes = ""
	if old == "" || old == name {
		return
	}
	if _, err := e.store.Trash(old); e.landed(err) != nil {
		e.notifyf("%q holds this conversation now, but %q, which it continues, was not moved to the trash: %v", name, old, err)
	}
}

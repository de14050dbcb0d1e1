package repl

// exitLine says how to come back to the conversation: the autosave made on
// exit (name), or, at a terminal, the bound session; wrapped to ErrWidth.
func exitLine(o Options, name string) {
	switch b := o.Engine.Bound(); {
	case name != "":
		o.sayErr("Conversation saved as %q; chatcli --resume %s continues it (chatcli -c in this folder). Set CHATCLI_SESSION_AUTOSAVE=off to stop saving on exit.\n", name, name)
		if o.OnSaved != nil {
			o.OnSaved(name)
		}
	case b != "" && o.Reader != nil && len(o.Engine.History()) > 0:
		o.sayErr("Session %q is saved; chatcli --resume %s continues it.\n", b, b)
	}
}

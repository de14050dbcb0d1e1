package conversation

// notifyf tells the notifier the notice whose English format is key, in
// the engine's language (Options.Lang). An error among args is said in
// that language too when it is one of the catalog's (i18n.Errorf).
func (e *Engine) notifyf(key string, args ...any) {
	for i, a := range args {
		if err, ok := a.(error); ok {
			args[i] = e.lang.Error(err, nil)
		}
	}
	e.notify(e.lang.Sprintf(key, args...))
}

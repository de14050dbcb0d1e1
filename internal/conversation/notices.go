package conversation

// notifyf tells the notifier the notice whose English format is key, in
// the engine's language (Options.Lang).
func (e *Engine) notifyf(key string, args ...any) { e.notify(e.lang.Sprintf(key, args...)) }

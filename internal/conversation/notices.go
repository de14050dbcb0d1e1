package conversation

import "github.com/chatcli/chatcli/internal/i18n"

// notifyf tells the notifier the notice whose English format is key, in
// the engine's language (Options.Lang). An error among args is said in
// that language too when it is one of the catalog's (i18n.Errorf), and so
// is an i18n.Text, with the kinds of error it names (i18n.Printer.Kind).
func (e *Engine) notifyf(key string, args ...any) {
	for i, a := range args {
		switch a := a.(type) {
		case error:
			args[i] = e.lang.Error(a, nil)
		case i18n.Text:
			args[i] = e.lang.TextWith(a, func(err error) string { return e.lang.Kind(err.Error()) })
		}
	}
	e.notify(e.lang.Sprintf(key, args...))
}

package i18n

// screenMessages are the catalog of the terminal's questions and screens:
// agent and coder mode's permission question.
// The keys a person presses (y, n, a, Enter, Ctrl+R…) stay as they are.
var screenMessages = []struct{ en, pt string }{
	{"Allow %s? [y]es / [n]o / [a]lways for this session ",
		"Permitir %[1]s? [y] sim / [n] não / [a] sempre nesta sessão "},
	{"Answer y, n or a.\n", "Responda y, n ou a.\n"},
	{"Taken as no.\n", "Entendido como não.\n"},
}

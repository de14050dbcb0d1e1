package i18n

// replMessages are what the REPL and -p draw while they wait: the
// spinner's labels ("⣾ waiting for the model… 3s"); and a yes/no
// question's choices, whose yes is the language's (Printer.Agrees).
var replMessages = []struct{ en, pt string }{
	{"%s [y/N] ", "%[1]s [s/N] "},
	// the line editor's labels: a folded paste, the candidates shown, the
	// history search's prompt (Ctrl+R)
	{"[pasted %d lines]", "[%[1]d linhas coladas]"},
	{"[pasted %d characters]", "[%[1]d {caractere colado|caracteres colados}]"},
	{"  (%d of %d shown)", "  (%[1]d de %[2]d mostrados)"},
	{"(reverse-i-search)`%s': ", "(busca no histórico)`%[1]s': "},
	{"(failing reverse-i-search)`%s': ", "(busca no histórico, nada encontrado)`%[1]s': "},
	{"waiting for the model", "aguardando o modelo"},
	{"compacting", "compactando"},
	{"searching", "buscando"},
	{"running %s", "executando %[1]s"},
}

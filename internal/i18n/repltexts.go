package i18n

// replMessages are what the REPL and -p draw while they wait: the
// spinner's labels ("⣾ waiting for the model… 3s"); and a yes/no
// question's choices, whose yes is the language's (Printer.Agrees).
var replMessages = []struct{ en, pt string }{
	{"%s [y/N] ", "%[1]s [s/N] "},
	{"waiting for the model", "aguardando o modelo"},
	{"compacting", "compactando"},
	{"searching", "buscando"},
	{"running %s", "executando %[1]s"},
}

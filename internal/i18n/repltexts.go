package i18n

// replMessages are what the REPL and -p draw while they wait: the
// spinner's labels ("⣾ waiting for the model… 3s").
var replMessages = []struct{ en, pt string }{
	{"waiting for the model", "aguardando o modelo"},
	{"compacting", "compactando"},
	{"searching", "buscando"},
	{"running %s", "executando %[1]s"},
}

package i18n

// acpMessages are the catalog of what chatcli acp says through a Printer
// beyond the shared commands' texts: the reasons of its JSON-RPC errors
// that name an ACP session, the options of the permission requests it
// sends the editor and the notice of a refused line.
var acpMessages = []struct{ en, pt string }{
	{"acp: refused a line (%d %s)%s", "acp: linha recusada (%[1]d %[2]s)%[3]s"},
	{"Allow", "Permitir"},
	{"Always allow for this session", "Sempre permitir nesta sessão"},
	{"Reject", "Recusar"},
	{"ACP session %s was replaced by a later session/load",
		"a sessão ACP %[1]s foi substituída por um session/load posterior"},
	{"no ACP session %s in this connection (session/new or session/load first)",
		"nenhuma sessão ACP %[1]s nesta conexão (faça session/new ou session/load antes)"},
}

// acpErrors are the messages of chatcli acp's own errors (Errorf), which
// its JSON-RPC errors carry as their reason.
var acpErrors = []struct{ en, pt string }{
	{"%w: %s does nothing here; close the thread in the editor to end the session",
		"%[1]v: %[2]s não faz nada aqui; feche a thread no editor para encerrar a sessão"},
	{"the turn was not saved: %w; it is kept only in this ACP session's memory, and the next prompt tries the save again",
		"o turno não foi salvo: %[1]v; ele fica só na memória desta sessão ACP, e o próximo prompt tenta salvar de novo"},
}

package i18n

// screenMessages are the catalog of the terminal's questions and screens:
// agent and coder mode's permission question, and the session picker.
// The keys a person presses (y, n, a, Enter, Ctrl+R…) stay as they are.
var screenMessages = []struct{ en, pt string }{
	{"Allow %s? [y]es / [n]o / [a]lways for this session ",
		"Permitir %[1]s? [y] sim / [n] não / [a] sempre nesta sessão "},
	{"Answer y, n or a.\n", "Responda y, n ou a.\n"},
	{"Taken as no.\n", "Entendido como não.\n"},
	{"all folders", "todas as pastas"},
	{"this folder", "esta pasta"},
	{"Resume a session · %s · %d shown of %d",
		"Retomar uma sessão · %[1]s · %[2]d mostradas de %[3]d"},
	{" · loading…", " · carregando…"},
	{"Move %q to the trash? [y/N]", "Mover '%[1]s' para a lixeira? [y/N]"},
	{"MSGS", "MSGS"},
	{"now", "agora"},
	{"Enter resume · Ctrl+R rename · Ctrl+D trash · Tab this folder/all · Esc cancel",
		"Enter retoma · Ctrl+R renomeia · Ctrl+D lixeira · Tab esta pasta/todas · Esc cancela"},
	{"No saved sessions yet. Esc, then chat: the conversation is kept as you leave.",
		"Nenhuma sessão salva ainda. Esc, e converse: a conversa é guardada quando você sai."},
	{"No session matches.", "Nenhuma sessão corresponde."},
	{"listing stopped: %s", "listagem interrompida: %[1]s"},
	{"(no preview: %s)", "(sem prévia: %[1]s)"},
	{"content search failed: %s", "a busca no conteúdo falhou: %[1]s"},
	{"%q moved to the trash (chatcli session restore %s brings it back)",
		"'%[1]s' movida para a lixeira (chatcli session restore %[2]s a traz de volta)"},
	{"renamed %q to %q", "'%[1]s' renomeada para '%[2]s'"},
	{"type to filter by name and title; 3+ characters also search the content",
		"digite para filtrar por nome e título; 3+ caracteres também buscam no conteúdo"},
	{"new name: ", "novo nome: "},
	{"not renamed", "não renomeada"},
	{"not moved to the trash", "não movida para a lixeira"},
}

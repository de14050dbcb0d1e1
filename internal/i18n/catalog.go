package i18n

// messages are the catalog: each English format and its Brazilian
// Portuguese text. Lines quoted from ChatCLI's documentation are kept as
// it prints them.
var messages = []struct{ en, pt string }{
	{"Saved %d messages as session %q; later turns are saved there too.\n",
		"Sessão '%[2]s' salva com sucesso.\n"},
	{"Loaded session %q (%d messages).\n",
		"Sessão '%[1]s' carregada. A conversa anterior foi restaurada.\n"},
	{"Session %q moved to the trash; `chatcli session restore %s` brings it back.\n",
		"Sessão '%[1]s' deletada com sucesso do disco.\nEla fica na lixeira: `chatcli session restore %[2]s` a traz de volta.\n"},
	{"It was the active session: the conversation was cleared and is no longer bound.\n",
		"Era a sessão ativa: o histórico foi limpo e a conversa não está mais vinculada.\n"},
	{"Not deleted.\n", "Nada foi deletado.\n"},
	{"Started a new conversation.\n", "Nova sessão de conversa iniciada; histórico foi limpo.\n"},
	{"Forked %q into %q (%d messages); now bound to %[2]q, the original is untouched.\n",
		"╭── ✅ Session forked!\n│    De:  %[1]s\n│    Para:    %[2]s\n│    Mensagens: %[3]d\n│    Agora trabalhando no fork. O original permanece intacto.\n╰──────────────────────────────────────────────\n"},
	{"Forked the conversation into %q (%d messages); now bound to it.\n",
		"╭── ✅ Session forked!\n│    De:  (conversa não salva)\n│    Para:    %[1]s\n│    Mensagens: %[2]d\n│    Agora trabalhando no fork. O original permanece intacto.\n╰──────────────────────────────────────────────\n"},
	{"Attached to new session %q; it is written at the next turn.\n",
		"Vinculada à nova sessão '%[1]s'; ela é gravada no próximo turno.\n"},
	{"Attached to session %q (%d messages); every turn is written through.\n",
		"Vinculada à sessão '%[1]s' (%[2]d mensagens); cada turno é gravado nela.\n"},
	{"No session is bound.\n", "Nenhuma sessão vinculada.\n"},
	{"Detached from %q; the conversation continues unbound.\n",
		"Desvinculada de '%[1]s'; a conversa continua sem vínculo.\n"},
	{"The previous conversation was saved as %q.\n",
		"A conversa anterior foi salva como '%[1]s'.\n"},
}

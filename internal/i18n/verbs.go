package i18n

// verbMessages are the catalog of the headless verbs' output (chatcli
// session …, chatcli storage) and of the tables the REPL shares with them.
var verbMessages = []struct{ en, pt string }{
	{"NAME", "NOME"},
	{"MESSAGES", "MENSAGENS"},
	{"UPDATED", "ATUALIZADA"},
	{"TITLE", "TÍTULO"},
	{"FOLDER", "PASTA"},
	{"(unreadable: %s)", "(ilegível: %[1]s)"},
	{"No saved sessions. /session save NAME saves this one.\n",
		"Nenhuma sessão salva encontrada. /session save NOME salva esta.\n"},
	{"No saved sessions in %s. A conversation is kept as an autosave when the REPL exits; chatcli --name NAME saves one as NAME.\n",
		"Nenhuma sessão salva encontrada em %[1]s. Uma conversa é guardada como autosave quando o REPL termina; chatcli --name NOME a salva como NOME.\n"},
	{"(%d of the %d sessions used in %s, %d in all; -n 0 lists them all, --all every folder's)\n",
		"(%[1]d {[2]da|das} %[2]d {sessão usada|sessões usadas} em %[3]s, %[4]d ao todo; -n 0 lista todas, --all as de todas as pastas)\n"},
	{"(the sessions used in %s, %d of %d; --all lists every folder's)\n",
		"(as sessões usadas em %[1]s, %[2]d de %[3]d; --all lista as de todas as pastas)\n"},
	{"(%d of %d sessions; -n 0 lists them all)\n",
		"(%[1]d de %[2]d {sessão|sessões}; -n 0 lista todas)\n"},
	{"Session %s · %d messages · updated %s\n",
		"Sessão %[1]s · %[2]d {mensagem|mensagens} · atualizada em %[3]s\n"},
	{" (result of %s)", " (resultado de %[1]s)"},
	{" (unanswered)", " (sem resposta)"},
	{"  (unanswered: its request failed or was cancelled)\n", "  (sem resposta: a requisição falhou ou foi cancelada)\n"},
	{"Forked %q into %q (%d messages).\n",
		"╭── ✅ Session forked!\n│    De:   %[1]s\n│    Para: %[2]s\n│    Mensagens: %[3]d\n╰──────────────────────────────────────────────\n"},
	{"No saved sessions.\n", "Nenhuma sessão salva.\n"},
	{"No matches.\n", "Nenhum resultado.\n"},
	{" (deleted)", " (apagada)"},
	{" (also in %s and %d more)", " (também em %[1]s e mais %[2]d)"},
	{" (also in %s)", " (também em %[1]s)"},
	{"%d messages", "%[1]d {mensagem|mensagens}"},
	{"fork at %d", "fork em %[1]d"},
	{"conflict fork at %d", "fork de conflito em %[1]d"},
	{"attached as new at %d", "vinculada como nova em %[1]d"},
	{"saved as new at %d", "salva como nova em %[1]d"},
	{"%s at %d", "%[1]s em %[2]d"},
	{" of %q (no longer in the store)", " de %[1]q (que não está mais no armazenamento)"},
	{" of %q (renamed since)", " de %[1]q (renomeada desde então)"},
	{"unreadable: %s", "ilegível: %[1]s"},
	{"Restored session %q from the trash.\n", "Sessão '%[1]s' restaurada da lixeira.\n"},
	{"Store %s\n", "Armazenamento %[1]s\n"},
	{"STORE\tFILES\tSIZE\tREMOVABLE NOW\tRULE\n", "ARMAZENAMENTO\tARQUIVOS\tTAMANHO\tREMOVÍVEL AGORA\tREGRA\n"},
	{"checking %d sessions once (written by an earlier version)… %d/%d",
		"verificando %[1]d {sessão|sessões} uma única vez ({gravada|gravadas} por uma versão anterior)… %[2]d/%[3]d"},
}

// catalogue is every message printed through a Printer: the REPL's
// (messages), the headless verbs' (verbMessages), storage's
// (storageMessages), the servers' (serverMessages, chatMessages), the
// engine's notices (noticeMessages), chatcli acp's (acpMessages) and the
// help's headings (helpHeadings).
func catalogue() []struct{ en, pt string } {
	all := append([]struct{ en, pt string }{}, messages...)
	all = append(append(all, verbMessages...), storageMessages...)
	all = append(append(all, screenMessages...), listingMessages...)
	all = append(append(all, serverMessages...), chatMessages...)
	all = append(append(all, acpMessages...), retryMessages...)
	all = append(append(all, configMessages...), replMessages...)
	all = append(all, headlessMessages...)
	return append(append(all, noticeMessages...), helpHeadings...)
}

// textMessages are the messages of Errorf and Textf: the errors
// (errorMessages, formatErrors, jsonErrors, gatewayErrors, configTexts,
// acpErrors, hintErrors, importTexts, shadowErrors, indexErrors), the retention report's texts (storageTexts) and
// the journal reader's (journalTexts), whose English is fmt's of their
// format.
func textMessages() []struct{ en, pt string } {
	all := append([]struct{ en, pt string }{}, errorMessages...)
	all = append(append(all, storageTexts...), formatErrors...)
	all = append(append(all, configTexts...), acpErrors...)
	all = append(append(all, hintErrors...), journalTexts...)
	all = append(append(all, searchWarnings...), acpReasons...)
	all = append(all, headlessTexts...)
	all = append(append(all, importTexts...), shadowErrors...)
	all = append(all, indexErrors...)
	return append(append(all, jsonErrors...), gatewayErrors...)
}

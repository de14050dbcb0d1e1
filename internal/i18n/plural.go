package i18n

// A message that counts something is keyed by its plural English text
// ("Loaded session %q (%d messages).\n"); singulars gives, for the
// messages whose count may be one, the text said instead when it is.
//
// The rule is CLDR's (plurals.xml, the table golang.org/x/text/feature/plural
// is built from): English "one" is exactly 1 ("1 message", "0 messages");
// Portuguese, pt being Brazilian Portuguese in CLDR, "one" is i = 0..1, an
// integer 0 or 1 ("0 mensagem", "1 mensagem", "2 mensagens"); pt_PT, which
// chatcli does not speak, is 1 only. A Printer picks the singular text of
// its language when the argument numbered arg (from 1, as in %[1]d) is a
// count its language says in the singular, so the singular texts take the
// same arguments as the key and number them the same way.
var singulars = []struct {
	key    string // the catalog key, counting in the plural
	arg    int    // the count: its argument, numbered from 1
	en, pt string // the texts when the count is one
}{
	// the retention pass's summary (retention.SummaryIn)
	{"moved %d machine-made sessions to the trash", 1,
		"moved %d machine-made session to the trash", "%[1]d sessão criada pelo chatcli movida para a lixeira"},
	{"deleted %d orphan journals", 1, "deleted %d orphan journal", "%[1]d journal órfão apagado"},
	{"deleted %d leftover temp files", 1, "deleted %d leftover temp file", "%[1]d arquivo temporário esquecido apagado"},
	{"deleted %d expired trash entries", 1, "deleted %d expired trash entry", "%[1]d item vencido da lixeira apagado"},
	{"deleted %d checkpoint repositories", 1, "deleted %d checkpoint repository", "%[1]d repositório de checkpoints apagado"},
	{"Loaded session %q (%d messages).\n", 2,
		"Loaded session %q (%d message).\n",
		"Sessão '%[1]s' carregada. A conversa anterior foi restaurada.\n"},
	{"Session %s · %d messages · updated %s\n", 2,
		"Session %s · %d message · updated %s\n",
		"Sessão %[1]s · %[2]d mensagem · atualizada em %[3]s\n"},
	{"Saved %d messages as session %q; later turns are saved there too.\n", 1,
		"Saved %d message as session %q; later turns are saved there too.\n",
		"Sessão '%[2]s' salva com sucesso.\n"},
	{"Forked %q into %q (%d messages).\n", 3,
		"Forked %q into %q (%d message).\n",
		"╭── ✅ Session forked!\n│    De:   %[1]s\n│    Para: %[2]s\n│    Mensagens: %[3]d\n╰──────────────────────────────────────────────\n"},
	{"Forked %q into %q (%d messages); now bound to %[2]q, the original is untouched.\n", 3,
		"Forked %q into %q (%d message); now bound to %[2]q, the original is untouched.\n",
		"╭── ✅ Session forked!\n│    De:   %[1]s\n│    Para: %[2]s\n│    Mensagens: %[3]d\n│    Agora trabalhando no fork. O original permanece intacto.\n╰──────────────────────────────────────────────\n"},
	{"Forked the conversation into %q (%d messages); now bound to it.\n", 2,
		"Forked the conversation into %q (%d message); now bound to it.\n",
		"╭── ✅ Session forked!\n│    De:   (conversa não salva)\n│    Para: %[1]s\n│    Mensagens: %[2]d\n│    Agora trabalhando no fork. O original permanece intacto.\n╰──────────────────────────────────────────────\n"},
	{"Forked the conversation as it was at checkpoint %d into %q (%d messages); now bound to it.\n", 3,
		"Forked the conversation as it was at checkpoint %d into %q (%d message); now bound to it.\n",
		"A conversa como estava no checkpoint %[1]d foi copiada para o fork '%[2]s' (%[3]d mensagem); agora vinculada a ele.\n"},
	{"Attached to session %q (%d messages); every turn is written through.\n", 2,
		"Attached to session %q (%d message); every turn is written through.\n",
		"Vinculada à sessão '%[1]s' (%[2]d mensagem); cada turno é gravado nela.\n"},
	{"Continuing %q (%d messages) unbound: sessions chatcli made expire, so at exit a new autosave holds the whole conversation and replaces it; /session save NAME keeps it for good.\n", 2,
		"Continuing %q (%d message) unbound: sessions chatcli made expire, so at exit a new autosave holds the whole conversation and replaces it; /session save NAME keeps it for good.\n",
		"Continuando '%[1]s' (%[2]d mensagem) sem vínculo: sessões criadas pelo chatcli expiram, então na saída um novo autosave guarda a conversa inteira e o substitui; /session save NOME a guarda para sempre.\n"},
	{"Restored the history from before the last compaction (%d messages).\n", 1,
		"Restored the history from before the last compaction (%d message).\n",
		"Histórico restaurado de antes da última compactação (%[1]d mensagem).\n"},
	{"Rewound to %s, before %q: %d messages.\n", 3,
		"Rewound to %s, before %q: %d message.\n",
		"Voltou para %[1]s, antes de '%[2]s': %[3]d mensagem.\n"},
	{"No session bound (%d messages, %s). /session save NAME or /session attach NAME binds one.\n", 1,
		"No session bound (%d message, %s). /session save NAME or /session attach NAME binds one.\n",
		"Nenhuma sessão vinculada (%[1]d mensagem, %[2]s). /session save NOME ou /session attach NOME vincula uma.\n"},
	{"Bound to session %q (%d messages), written through to %s\n", 2,
		"Bound to session %q (%d message), written through to %s\n",
		"Vinculada à sessão '%[1]s' (%[2]d mensagem), gravada em %[3]s\n"},
	{"This conversation · %d messages · bound to session %s\n", 1,
		"This conversation · %d message · bound to session %s\n",
		"Esta conversa · %[1]d mensagem · vinculada à sessão %[2]s\n"},
	{"This conversation · %d messages · not bound to a session\n", 1,
		"This conversation · %d message · not bound to a session\n",
		"Esta conversa · %[1]d mensagem · sem sessão vinculada\n"},
	{"… %d earlier messages (/session transcript show 1)\n", 1,
		"… %d earlier message (/session transcript show 1)\n",
		"… %[1]d mensagem anterior (/session transcript show 1)\n"},
	{"Exported %d messages to %s (source: %s).\n", 1,
		"Exported %d message to %s (source: %s).\n",
		"Exportada %[1]d entrada para %[2]s (fonte: %[3]s).\n"},
	{"Detached %d contexts.\n", 1,
		"Detached %d context.\n",
		"%[1]d contexto desanexado.\n"},
	{"Memory: %d notes (/memory show)\n", 1,
		"Memory: %d note (/memory show)\n",
		"Memória: %[1]d nota (/memory show)\n"},
	{"%d files", 1, "%d file", "%[1]d arquivo"},
	{"%d chunks", 1, "%d chunk", "%[1]d chunk"},
	{"(%d of %d sessions; -n 0 lists them all)\n", 2,
		"(%d of %d session; -n 0 lists them all)\n",
		"(%[1]d de %[2]d sessão; -n 0 lista todas)\n"},
	{"adopted a newer version of session %q (%d messages) written elsewhere", 2,
		"adopted a newer version of session %q (%d message) written elsewhere",
		"adotada uma versão mais nova da sessão '%[1]s' (%[2]d mensagem) gravada em outro lugar"},
	{"the %d messages after the compaction are dropped too; the journal keeps them", 1,
		"the %d message after the compaction is dropped too; the journal keeps it",
		"a %[1]d mensagem depois da compactação também é descartada; o journal a guarda"},
	{"Summarising part %d of %d (%d messages) via LLM…", 3,
		"Summarising part %d of %d (%d message) via LLM…",
		"Resumindo a parte %[1]d de %[2]d (%[3]d mensagem) via LLM…"},
	{"took in %d lines of ChatCLI's input history (%s)", 1,
		"took in %d line of ChatCLI's input history (%s)",
		"%[1]d linha do histórico de entrada do ChatCLI incorporada (%[2]s)"},
}

// singular maps each key of singulars to its entry's index.
var singular = func() map[string]int {
	m := make(map[string]int, len(singulars))
	for i, s := range singulars {
		m[s.key] = i
	}
	return m
}()

// one reports whether n, a count, is said in the singular in p's
// language (see singulars).
func (p *Printer) one(n any) bool {
	var i int64
	switch n := n.(type) {
	case int:
		i = int64(n)
	case int64:
		i = n
	default:
		return false
	}
	if p.Tag() == Portuguese {
		return i == 0 || i == 1
	}
	return i == 1
}

// singularOf returns the singular text of key in p's language when args
// count one, else key.
func (p *Printer) singularOf(key string, args []any) (string, bool) {
	i, ok := singular[key]
	if !ok {
		return key, false
	}
	s := singulars[i]
	if s.arg > len(args) || !p.one(args[s.arg-1]) {
		return key, false
	}
	if p.Tag() == Portuguese {
		return s.pt, true
	}
	return s.en, true
}

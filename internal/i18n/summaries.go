package i18n

// replSummaries are the catalog of the REPL's /help lines: each command's
// and session verb's one-line summary (command.Commands, its session
// verbs).
var replSummaries = []struct{ en, pt string }{
	{"agent mode: the model reads files and runs commands (each command asks first)",
		"modo agent: o modelo lê arquivos e roda comandos (cada comando pergunta antes)"},
	{"chat mode: no tools (the default)",
		"modo chat: sem ferramentas (o padrão)"},
	{"start a new conversation (same as /session new)",
		"começa uma nova conversa (o mesmo que /session new)"},
	{"coder mode: the model also writes and edits files (each write asks first)",
		"modo coder: o modelo também escreve e edita arquivos (cada escrita pergunta antes)"},
	{"summarise older messages (keeps the last 10; with an instruction, the last 4)",
		"resume as mensagens antigas (mantém as 10 últimas; com uma instrução, as 4 últimas)"},
	{"show every setting with its value and source; session: the session settings and the active journal",
		"mostra cada configuração com seu valor e origem; session: as configurações de sessão e o journal ativo"},
	{"snapshots of files and folders sent with every request (create, attach, …); alone: what each request includes",
		"snapshots de arquivos e pastas enviados com cada requisição (create, attach, …); sozinho: o que cada requisição inclui"},
	{"leave chatcli (also /quit, Ctrl+D)",
		"sai do chatcli (também /quit, Ctrl+D)"},
	{"list the commands",
		"lista os comandos"},
	{"join a Conversation Hub thread: see live the turns of the chats and terminals in it",
		"entra numa thread do Conversation Hub: veja ao vivo os turnos dos chats e terminais nela"},
	{"notes sent with every request of every session",
		"notas enviadas com cada requisição de cada sessão"},
	{"show the provider and model, or use model NAME from the next turn",
		"mostra o provedor e o modelo, ou usa o modelo NOME a partir do próximo turno"},
	{"leave chatcli",
		"sai do chatcli"},
	{"continue a saved session (without NAME on a terminal: pick one); sessions chatcli made continue unbound",
		"continua uma sessão salva (sem NOME num terminal: escolha uma); sessões criadas pelo chatcli continuam sem vínculo"},
	{"resend the last prompt when its request failed or was cancelled (or TEXT in its place)",
		"reenvia o último prompt quando sua requisição falhou ou foi cancelada (ou TEXTO no lugar dele)"},
	{"step back to a checkpoint: the conversation, the files the tools changed, or both (Esc Esc opens the menu); compact undoes the last compaction",
		"volta a um checkpoint: a conversa, os arquivos que as ferramentas mudaram, ou os dois (Esc Esc abre o menu); compact desfaz a última compactação"},
	{"save, load and manage sessions (/session help)",
		"salva, carrega e gerencia sessões (/session help)"},
	{"disk use per store and the retention rules; prune lists what they remove, --apply removes it",
		"uso de disco por armazenamento e as regras de retenção; prune lista o que elas removem, --apply remove"},
	{"use another provider (any --provider name: openai, anthropic, googleai, ollama, …) from the next turn",
		"usa outro provedor (qualquer nome de --provider: openai, anthropic, googleai, ollama, …) a partir do próximo turno"},
	{"save the conversation as NAME and bind to it (--yes replaces another session)",
		"salva a conversa como NOME e a vincula (--yes substitui outra sessão)"},
	{"replace the conversation with session NAME and bind to it (an autosave continues unbound)",
		"troca a conversa pela sessão NOME e a vincula (um autosave continua sem vínculo)"},
	{"list saved sessions, newest first",
		"lista as sessões salvas, as mais novas primeiro"},
	{"move session NAME to the trash (chatcli session restore NAME brings it back)",
		"move a sessão NOME para a lixeira (chatcli session restore NOME a traz de volta)"},
	{"start a new, unbound conversation",
		"começa uma conversa nova, sem vínculo"},
	{"copy the conversation (with --at, its messages 1..N as transcript show numbers them; with --checkpoint, its state at checkpoint K as /rewind list numbers them) into session NEW and bind to it",
		"copia a conversa (com --at, suas mensagens 1..N como transcript show as numera; com --checkpoint, seu estado no checkpoint K como /rewind list os numera) para a sessão NOVA e a vincula"},
	{"give the bound session the title TEXT (listings and the picker show it)",
		"dá à sessão vinculada o título TEXTO (as listas e o seletor o mostram)"},
	{"rename session OLD, or the bound session, to NEW (never replaces a session)",
		"renomeia a sessão ANTIGA, ou a vinculada, para NOVA (nunca substitui uma sessão)"},
	{"bind to NAME: every turn is written through",
		"vincula a NOME: cada turno é gravado nela"},
	{"stop writing turns to the bound session",
		"para de gravar os turnos na sessão vinculada"},
	{"print the messages of session NAME, or of this conversation",
		"mostra as mensagens da sessão NOME, ou desta conversa"},
	{"show the bound session and the conversation size",
		"mostra a sessão vinculada e o tamanho da conversa"},
	{"write the whole transcript (journal) as Markdown or JSONL (--yes replaces PATH)",
		"grava a transcrição inteira (journal) em Markdown ou JSONL (--yes substitui CAMINHO)"},
	{"read the journal: messages from #N, statistics, ranked search, export (as /session export)",
		"lê o journal: mensagens a partir da #N, estatísticas, busca ranqueada, exportação (como /session export)"},
	{"search every session and journal",
		"busca em todas as sessões e journals"},
}

// SummaryTexts are the English texts of replSummaries.
func SummaryTexts() []string {
	out := make([]string, len(replSummaries))
	for i, m := range replSummaries {
		out[i] = m.en
	}
	return out
}

// Summary is the /help summary whose English text is en in p's language;
// en itself when the catalog lacks it.
func (p *Printer) Summary(en string) string { return p.from(replSummaries, en) }

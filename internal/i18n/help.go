package i18n

// helpMessages are the catalog of the --help texts: each command's
// one-line summary, the longer text of some, and the usage lines of the
// root's main flags.
// A text the catalog lacks is shown in English (see Printer.Help).
var helpMessages = []struct{ en, pt string }{
	{"Terminal AI chat with durable, named sessions", "Chat de IA no terminal com sessões duráveis e nomeadas"},
	{"Serve conversations to editors (Agent Client Protocol, stdio)",
		"Serve conversas a editores (Agent Client Protocol, stdio)"},
	{"Show the settings in effect, with their values and sources",
		"Mostra as configurações em vigor, com seus valores e origens"},
	{"Show every session setting with its value and source",
		"Mostra cada configuração de sessão com seu valor e origem"},
	{"Print where the config file is read from", "Mostra de onde o arquivo de configuração é lido"},
	{"Write a commented template of every setting to the config file",
		"Grava um modelo comentado de cada configuração no config.toml"},
	{"Write every sealed file back as plaintext (CHATCLI_ENCRYPTION_KEY)",
		"Regrava em texto puro cada arquivo selado (CHATCLI_ENCRYPTION_KEY)"},
	{"Serve conversations on Telegram, Slack and WhatsApp", "Serve conversas no Telegram, Slack e WhatsApp"},
	{"Send a message to a channel's home channel or to CHANNEL:CHAT",
		"Envia uma mensagem ao canal principal de um canal ou a CANAL:CHAT"},
	{"Import Claude Code, Codex, Gemini CLI or opencode conversations",
		"Importa conversas do Claude Code, Codex, Gemini CLI ou opencode"},
	{"Serve chat and session tools to MCP clients over stdio",
		"Serve ferramentas de chat e de sessão a clientes MCP por stdio"},
	{"Re-seal every file under a new CHATCLI_ENCRYPTION_KEY",
		"Recriptografa cada arquivo com a nova CHATCLI_ENCRYPTION_KEY"},
	{"List a session's checkpoints or restore one", "Lista os checkpoints de uma sessão ou restaura um"},
	{"Search every session and journal (BM25; ignores case and accents)",
		"Busca em sessões e journals (BM25; ignora maiúsculas e acentos)"},
	{"Manage saved sessions: list, show, fork, tree, search and more",
		"Gerencia as sessões salvas: list, show, fork, tree, search e mais"},
	{"List saved sessions, newest first", "Lista as sessões salvas, as mais novas primeiro"},
	{"Print a session's messages (--json: the v2 session document)",
		"Mostra as mensagens de uma sessão (--json: o documento v2)"},
	{"Move a session to the trash (--yes without a terminal)",
		"Move uma sessão para a lixeira (--yes sem um terminal)"},
	{"Copy session SRC into a new session DST (--at N, --checkpoint K)",
		"Copia a sessão SRC numa nova sessão DST (--at N, --checkpoint K)"},
	{"Show which sessions were made from which (forks, saves as new)",
		"Mostra que sessões vieram de quais (forks, saves com outro nome)"},
	{"Copy session SRC into a new session DST: all of it, with --at N its\nmessages 1..N only, with --checkpoint K SRC as it was at checkpoint K\n(the fork keeps that checkpoint and the older ones). SRC is untouched.",
		"Copia a sessão SRC numa nova sessão DST: inteira, com --at N só suas\nmensagens 1..N, com --checkpoint K a SRC como era no checkpoint K (o fork\nguarda esse checkpoint e os anteriores). A SRC fica intacta."},
	{"Rename a session (never replaces an existing one)", "Renomeia uma sessão (nunca substitui uma existente)"},
	{"Show disk use per store and the retention rules (see prune)",
		"Mostra o uso de disco e as regras de retenção (veja prune)"},
	{"List what the retention rules would remove; --apply removes it",
		"Lista o que as regras de retenção removeriam; --apply remove"},
	{"Bring session NAME back from the trash (its newest trashed copy)",
		"Traz a sessão NOME de volta da lixeira (sua cópia mais recente)"},
	{"Write a session's whole transcript as Markdown or JSONL",
		"Grava a transcrição inteira de uma sessão em Markdown ou JSONL"},
	{"Check every session and journal; --repair rewrites damaged ones",
		"Verifica sessões e journals; --repair regrava os danificados"},
	{"Manage the sessions under $CHATCLI_HOME/sessions without starting the REPL.\nThe same store and rules as the REPL's /session commands.",
		"Gerencia as sessões em $CHATCLI_HOME/sessions sem iniciar o REPL.\nO mesmo armazenamento e as mesmas regras dos comandos /session do REPL."},
	{"Move session NAME to $CHATCLI_HOME/trash, where it is kept 7 days;\n`chatcli session restore NAME` brings it back, and\n`chatcli storage prune --empty-trash` deletes it for good.",
		"Move a sessão NOME para $CHATCLI_HOME/trash, onde ela fica 7 dias;\n`chatcli session restore NOME` a traz de volta, e\n`chatcli storage prune --empty-trash` a apaga de vez."},
	{"provider: openai, anthropic, bedrock, googleai, ollama, xai, openrouter, zai, moonshot, minimax, github_models or offline (default from LLM_PROVIDER)",
		"provedor: openai, anthropic, bedrock, googleai, ollama, xai, openrouter, zai, moonshot, minimax, github_models ou offline (padrão: LLM_PROVIDER)"},
	{"model name (default from the provider's <NAME>_MODEL, e.g. OPENAI_MODEL)",
		"nome do modelo (padrão: <NOME>_MODEL do provedor, p. ex. OPENAI_MODEL)"},
	{"run one prompt, print the reply and exit (piped input is appended; - reads the prompt from stdin)",
		"roda um prompt, mostra a resposta e sai (a entrada por pipe é anexada; - lê o prompt da entrada)"},
	{"agent mode: the model may read files and run commands (with -p: run the task, print the final answer)",
		"modo agent: o modelo pode ler arquivos e rodar comandos (com -p: roda a tarefa e mostra a resposta final)"},
	{"coder mode: like --agent, and the model may also write files",
		"modo coder: como --agent, e o modelo também pode escrever arquivos"},
	{"let tools write files and run commands without asking (CHATCLI_AGENT_AUTO_EXEC)",
		"deixa as ferramentas escreverem arquivos e rodarem comandos sem perguntar (CHATCLI_AGENT_AUTO_EXEC)"},
}

// HelpTexts are the English texts of the help catalog: the summaries and
// flag lines (helpMessages) and the longer texts (helpLongs, moreHelp).
func HelpTexts() []string {
	out := make([]string, len(helpCatalog))
	for i, m := range helpCatalog {
		out[i] = m.en
	}
	return out
}

// helpCatalog is helpMessages, helpLongs and moreHelp.
var helpCatalog = append(append(append([]struct{ en, pt string }{}, helpMessages...), helpLongs...), moreHelp...)

// Help is the help text whose English text is en in p's language; en
// itself when the catalog lacks it.
func (p *Printer) Help(en string) string { return p.from(helpCatalog, en) }

// helpHeadings are the catalog of the help's headings and of the REPL's
// banner.
var helpHeadings = []struct{ en, pt string }{
	{"Usage:", "Uso:"},
	{"Aliases:", "Apelidos:"},
	{"Examples:", "Exemplos:"},
	{"Available Commands:", "Comandos disponíveis:"},
	{"Flags:", "Flags:"},
	{"Global Flags:", "Flags globais:"},
	{"Use \"%s [command] --help\" for more information about a command.",
		"Use \"%[1]s [command] --help\" para saber mais de um comando."},
	{"help for %s", "ajuda de %[1]s"},
	{"chatcli %s · provider offline · /help for commands\nReplies are generated locally, NOT by a language model.\nSet OPENAI_API_KEY, ANTHROPIC_API_KEY or OPENAI_BASE_URL to use one.",
		"chatcli %[1]s · provedor offline · /help mostra os comandos\nAs respostas são geradas localmente, NÃO por um modelo de linguagem.\nDefina OPENAI_API_KEY, ANTHROPIC_API_KEY ou OPENAI_BASE_URL para usar um."},
	{"chatcli %s · provider %s · model %s · /help for commands",
		"chatcli %[1]s · provedor %[2]s · modelo %[3]s · /help mostra os comandos"},
}

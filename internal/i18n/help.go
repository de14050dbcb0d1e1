package i18n

// helpMessages are the catalog of the --help texts: each command's
// one-line summary, the longer text of some, and the usage lines of the
// root's main flags.
// A text the catalog lacks is shown in English (see Printer.Help).
var helpMessages = []struct{ en, pt string }{
	{"Terminal AI chat with durable, named sessions", "Chat de IA no terminal com sessões duráveis e nomeadas"},
	{"Serve conversations to editors over the Agent Client Protocol (stdio)",
		"Serve conversas a editores pelo Agent Client Protocol (stdio)"},
	{"Show the settings in effect, with their values and sources",
		"Mostra as configurações em vigor, com seus valores e origens"},
	{"Show every session setting with its value and source",
		"Mostra cada configuração de sessão com seu valor e origem"},
	{"Print where the config file is read from", "Mostra de onde o arquivo de configuração é lido"},
	{"Write a commented template of every setting to the config file",
		"Grava no arquivo de configuração um modelo comentado de cada configuração"},
	{"Write every sealed session, journal, context, memory and history file back as plaintext (key in CHATCLI_ENCRYPTION_KEY)",
		"Grava de volta em texto puro cada sessão, journal, contexto, memória e histórico criptografados (chave em CHATCLI_ENCRYPTION_KEY)"},
	{"Serve conversations on Telegram, Slack and WhatsApp", "Serve conversas no Telegram, Slack e WhatsApp"},
	{"Import conversations from Claude Code, Codex, Gemini CLI or opencode as sessions",
		"Importa conversas do Claude Code, Codex, Gemini CLI ou opencode como sessões"},
	{"Serve chat and session tools to MCP clients over stdio",
		"Serve ferramentas de chat e de sessão a clientes MCP por stdio"},
	{"Re-seal every session and journal under CHATCLI_ENCRYPTION_KEY (old key: CHATCLI_ENCRYPTION_KEY_OLD)",
		"Recriptografa cada sessão e journal com CHATCLI_ENCRYPTION_KEY (chave antiga: CHATCLI_ENCRYPTION_KEY_OLD)"},
	{"List a session's checkpoints or restore one", "Lista os checkpoints de uma sessão ou restaura um"},
	{"Search every session and journal (BM25 ranking; case and accents ignored)",
		"Busca em todas as sessões e journals (ranking BM25; ignora maiúsculas e acentos)"},
	{"Manage saved sessions: list, show, delete, restore, fork, rename, export, search, rewind",
		"Gerencia as sessões salvas: list, show, delete, restore, fork, rename, export, search, rewind"},
	{"List saved sessions, newest first", "Lista as sessões salvas, as mais novas primeiro"},
	{"Print a session's messages (--json: the v2 session document)",
		"Mostra as mensagens de uma sessão (--json: o documento v2 da sessão)"},
	{"Move a session to the trash (needs --yes when stdin is not a terminal)",
		"Move uma sessão para a lixeira (pede --yes quando a entrada não é um terminal)"},
	{"Copy session SRC (with --at, its messages 1..N) into a new session DST (SRC is untouched)",
		"Copia a sessão SRC (com --at, suas mensagens 1..N) para uma nova sessão DST (SRC fica intacta)"},
	{"Rename a session (never replaces an existing one)", "Renomeia uma sessão (nunca substitui uma existente)"},
	{"Show disk use per store and the retention rules (prune removes what they allow)",
		"Mostra o uso de disco por armazenamento e as regras de retenção (prune remove o que elas permitem)"},
	{"List what the retention rules would remove; --apply removes it",
		"Lista o que as regras de retenção removeriam; --apply remove"},
	{"Bring session NAME back from the trash (its newest trashed copy)",
		"Traz a sessão NOME de volta da lixeira (sua cópia mais recente)"},
	{"Write a session's whole transcript (its journal) as Markdown or JSONL",
		"Grava a transcrição inteira de uma sessão (seu journal) em Markdown ou JSONL"},
	{"Check every session, trashed session and journal; --repair rewrites damaged journals clean (keeping .broken copies)",
		"Verifica cada sessão, sessão na lixeira e journal; --repair regrava limpos os journals danificados (guardando cópias .broken)"},
	{"Manage the sessions under $CHATCLI_HOME/sessions without starting the REPL.\nThe same store and rules as the REPL's /session commands.",
		"Gerencia as sessões em $CHATCLI_HOME/sessions sem iniciar o REPL.\nO mesmo armazenamento e as mesmas regras dos comandos /session do REPL."},
	{"Move session NAME to $CHATCLI_HOME/trash, where it is kept 7 days;\n`chatcli session restore NAME` brings it back, and\n`chatcli storage prune --empty-trash` deletes it for good.",
		"Move a sessão NOME para $CHATCLI_HOME/trash, onde ela fica 7 dias;\n`chatcli session restore NOME` a traz de volta, e\n`chatcli storage prune --empty-trash` a apaga de vez."},
	{"provider: openai, anthropic, googleai, ollama, xai, openrouter, zai, moonshot, minimax, github_models or offline (default from LLM_PROVIDER)",
		"provedor: openai, anthropic, googleai, ollama, xai, openrouter, zai, moonshot, minimax, github_models ou offline (padrão: LLM_PROVIDER)"},
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

// HelpTexts are the English texts of the help catalog.
func HelpTexts() []string {
	out := make([]string, len(helpMessages))
	for i, m := range helpMessages {
		out[i] = m.en
	}
	return out
}

// Help is the help text whose English text is en in p's language; en
// itself when the catalog lacks it.
func (p *Printer) Help(en string) string {
	if p.Tag() != Portuguese {
		return en
	}
	for _, m := range helpMessages {
		if m.en == en {
			return m.pt
		}
	}
	return en
}

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
		"Use \"%[1]s [command] --help\" para mais informações sobre um comando."},
	{"help for %s", "ajuda de %[1]s"},
	{"chatcli %s · provider offline · /help for commands\nReplies are generated locally, NOT by a language model.\nSet OPENAI_API_KEY, ANTHROPIC_API_KEY or OPENAI_BASE_URL to use one.",
		"chatcli %[1]s · provedor offline · /help mostra os comandos\nAs respostas são geradas localmente, NÃO por um modelo de linguagem.\nDefina OPENAI_API_KEY, ANTHROPIC_API_KEY ou OPENAI_BASE_URL para usar um."},
	{"chatcli %s · provider %s · model %s · /help for commands",
		"chatcli %[1]s · provedor %[2]s · modelo %[3]s · /help mostra os comandos"},
}

package i18n

// kinds are the lines of the kinds of error chatcli names in its error
// lines: the English text of each kind (a sentinel error's own text, or
// the hint of a provider failure) and its Brazilian Portuguese line. An
// error line keeps everything else it says (names, paths, a server's
// message) as it is; see command.ErrorLineIn.
var kinds = []struct{ en, pt string }{
	// sessions
	{"session: not found", "sessão não encontrada"},
	{"session: already exists", "a sessão já existe"},
	{"session: unreadable file", "arquivo de sessão ilegível"},
	{"session: format too new", "formato de sessão mais novo que este chatcli"},
	{"session: changed by another process", "a sessão foi alterada por outro processo"},
	{"session: locked by another process", "a sessão está travada por outro processo"},
	{"session: invalid name", "nome de sessão inválido"},
	{"session: not written", "a sessão não foi gravada"},
	{"names use letters and digits of any script, '.', '_' and '-', start with a letter or digit, have 1-128 characters and at most 214 bytes in UTF-8, and contain no '..'",
		"os nomes usam letras e dígitos de qualquer escrita, '.', '_' e '-', começam com letra ou dígito, têm de 1 a 128 caracteres e no máximo 214 bytes em UTF-8, e não contêm '..'"},
	{"reserved session name", "nome de sessão reservado"},
	{"encrypted; set CHATCLI_ENCRYPTION_KEY", "criptografado; defina CHATCLI_ENCRYPTION_KEY"},
	{"the store is encrypted and CHATCLI_ENCRYPTION_KEY is not set",
		"o armazenamento está criptografado e CHATCLI_ENCRYPTION_KEY não está definida"},
	{"not a regular file", "não é um arquivo comum"},
	// encryption
	{"seal: wrong key or tampered data", "chave errada ou dados adulterados"},
	{"seal: corrupt envelope", "envelope criptografado corrompido"},
	{"seal: envelope version too new", "versão do envelope criptografado mais nova que este chatcli"},
	{"seal: bad key", "chave inválida"},
	// journals, checkpoints and the conversation
	{"journal: locked by another process", "o journal está travado por outro processo"},
	{"journal: corrupt record", "registro do journal corrompido"},
	{"rewind: no such checkpoint", "checkpoint inexistente"},
	{"rewind: the checkpoint holds no file checkpoint", "o checkpoint não tem checkpoint de arquivos"},
	{"conversation: no such message", "mensagem inexistente"},
	{"conversation: no session is bound", "nenhuma sessão vinculada"},
	{"conversation: no such recall key", "chave de recuperação inexistente"},
	{"conversation: step limit reached", "limite de passos atingido"},
	{"conversation: no tools available; agent and coder modes need them",
		"nenhuma ferramenta disponível; os modos agent e coder precisam delas"},
	// contexts and memory
	{"contexts: no such context", "contexto não encontrado"},
	{"contexts: context exists", "o contexto já existe"},
	{"contexts: unreadable context file", "arquivo de contexto ilegível"},
	{"contexts: too large", "contexto grande demais"},
	{"memory: unreadable notes file", "arquivo de notas da memória ilegível"},
	{"memory: no such note", "nota inexistente na memória"},
	// settings
	{"config: invalid setting: provider not supported", "configuração inválida: provedor não suportado"},
	{"config: invalid setting: config file", "configuração inválida: arquivo de configuração"},
	{"config: invalid setting", "configuração inválida"},
	// a request of the ACP server
	{"invalid params", "parâmetros inválidos"},
	// the system
	{"permission denied", "permissão negada"},
	{"operation not permitted", "operação não permitida"},
	{"no space left on device", "sem espaço no dispositivo"},
	{"read-only file system", "sistema de arquivos somente leitura"},
	{"context deadline exceeded", "tempo esgotado"},
	// the REPL
	{"some input lines failed", "algumas linhas da entrada falharam"},
	// provider failures (provider.Error's hints)
	{"authentication failed; check the API key", "a autenticação falhou; verifique a chave da API"},
	{"not found; check the model name and the base URL", "não encontrado; verifique o nome do modelo e a URL base"},
	{"rate limited; wait and retry", "limite de requisições atingido; aguarde e tente de novo"},
	{"server error; retry later", "erro no servidor; tente mais tarde"},
	{"request rejected", "requisição rejeitada"},
	{"cannot connect to the server; check the base URL and that the server is running",
		"não foi possível conectar ao servidor; verifique a URL base e se o servidor está rodando"},
	{"request timed out", "a requisição excedeu o tempo limite"},
	{"request cancelled", "requisição cancelada"},
	{"the conversation is longer than the model's context window; /compact it, set a smaller CHATCLI_CONTEXT_WINDOW so it is compacted sooner, or /rewind",
		"a conversa é maior que a janela de contexto do modelo; use /compact, defina um CHATCLI_CONTEXT_WINDOW menor para compactar antes, ou /rewind"},
	{"request failed", "a requisição falhou"},
}

// KindTexts are the English texts of the error kinds the catalog names.
func KindTexts() []string {
	out := make([]string, len(kinds))
	for i, k := range kinds {
		out[i] = k.en
	}
	return out
}

// Kind is the line of the error kind whose English text is en, in p's
// language; en itself when the catalog does not name it.
func (p *Printer) Kind(en string) string { return p.from(kinds, en) }

// from is the text of list whose English text is en, in p's language; en
// itself in English or when list lacks it.
func (p *Printer) from(list []struct{ en, pt string }, en string) string {
	if p.Tag() != Portuguese {
		return en
	}
	for _, m := range list {
		if m.en == en {
			return m.pt
		}
	}
	return en
}

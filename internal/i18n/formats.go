package i18n

// formatErrors are the catalog of the errors that say why a session file
// or a journal cannot be read.
var formatErrors = []struct{ en, pt string }{
	{"not a session document", "não é um documento de sessão"},
	{"file is empty (0 bytes)", "o arquivo está vazio (0 bytes)"},
	{"session %q is %w", "sessão %[1]q: %[2]v"},
	{"session %q is %w (ChatCLI's encryption, %s)", "sessão %[1]q: %[2]v (criptografia do ChatCLI, %[3]s)"},
	{"journal %s is %w", "journal %[1]s: %[2]v"},
	{"session %q: wrong encryption key or damaged file (%s): %w; it was not changed (it opens only with the key that sealed it)",
		"sessão %[1]q: chave de criptografia errada ou arquivo danificado (%[2]s): %[3]v; ele não foi alterado (só abre com a chave que o selou)"},
	{"journal %s: wrong encryption key or damaged file: %w; %s",
		"journal %[1]s: chave de criptografia errada ou arquivo danificado: %[2]v; %[3]s"},
	{"it was not changed (it opens only with the key that sealed it)", "ele não foi alterado (só abre com a chave que o selou)"},
	{"%w: version is %s", "%[1]v: a versão é %[2]s"},
	{"%w: field %q: %v", "%[1]v: campo %[2]q: %[3]v"},
	{"%w: field %q is not valid JSON", "%[1]v: o campo %[2]q não é JSON válido"},
	{"%w: %s_history: %v", "%[1]v: %[2]s_history: %[3]v"},
	{"%w: field \"chat_history\" is %s, not an array of messages",
		"%[1]v: o campo \"chat_history\" é %[2]s, não uma lista de mensagens"},
	{"%w: field \"chat_history\": message #%d at byte %d: %v",
		"%[1]v: campo \"chat_history\": mensagem nº %[2]d no byte %[3]d: %[4]v"},
	{"%w: field \"chat_history\": %v", "%[1]v: campo \"chat_history\": %[2]v"},
	{"an object", "um objeto"},
	{"a string", "uma string"},
	{"a boolean", "um booleano"},
	{"a number", "um número"},
	{"journal: open %s: %w", "journal: abrir %[1]s: %[2]v"},
	{"journal: seek %s: %w", "journal: posicionar em %[1]s: %[2]v"},
	{"journal: read %s at byte %d: %w", "journal: ler %[1]s no byte %[2]d: %[3]v"},
}

package i18n

// searchWarnings are the catalog of the warnings of a search over the
// sessions (package index): what it skipped and why it rebuilt its index,
// made by Textf and Errorf.
var searchWarnings = []struct{ en, pt string }{
	{"%v; the search index is rebuilt", "%[1]v; o índice de busca é refeito"},
	{"skipped session %q: %v", "sessão %[1]q pulada: %[2]v"},
	{"skipped session %q: %w", "sessão %[1]q pulada: %[2]v"},
	{"skipped journal %s: %v", "journal %[1]s pulado: %[2]v"},
	{"skipped journal %s: %w", "journal %[1]s pulado: %[2]v"},
}

// acpReasons are the catalog of why the ACP server refuses a request's
// parameters (a JSON-RPC "invalid params" error's reason), made by
// Errorf.
var acpReasons = []struct{ en, pt string }{
	{"%w: %s: cwd %q is not an absolute path", "%[1]v: %[2]s: o cwd %[3]q não é um caminho absoluto"},
	{"%w: %s: cwd %q: %v", "%[1]v: %[2]s: cwd %[3]q: %[4]v"},
	{"%w: %s: cwd %q is not a folder", "%[1]v: %[2]s: o cwd %[3]q não é uma pasta"},
	{"%w: session/list: %s", "%[1]v: session/list: %[2]s"},
	{"%w: prompt block %d: only text and resource links are supported (promptCapabilities)",
		"%[1]v: bloco %[2]d do prompt: só texto e links de recursos são aceitos (promptCapabilities)"},
	{"%w: the prompt holds no text", "%[1]v: o prompt não tem texto"},
}

// headlessTexts are the catalog of what `chatcli memory …` and `chatcli
// context …` say, made by Errorf: the REPL's /memory and /context
// errors, each naming the headless form.
var headlessTexts = []struct{ en, pt string }{
	{"%w: chatcli memory forget N (N from `chatcli memory list`)",
		"%[1]v: chatcli memory forget N (N de `chatcli memory list`)"},
	{"%w: chatcli memory forget N: %q is not a number", "%[1]v: chatcli memory forget N: %[2]q não é um número"},
	{"%w: unknown verb %q of chatcli memory; %s", "%[1]v: verbo desconhecido %[2]q de chatcli memory; %[3]s"},
	{"%w: deleting needs confirmation: chatcli context delete %s --yes",
		"%[1]v: deletar precisa de confirmação: chatcli context delete %[2]s --yes"},
	{"%w: unknown verb %q of chatcli context; %s", "%[1]v: verbo desconhecido %[2]q de chatcli context; %[3]s"},
}

// headlessMessages are the catalog of what `chatcli memory …` and
// `chatcli context …` print: the REPL's /memory and /context reports,
// each naming the headless form.
var headlessMessages = []struct{ en, pt string }{
	{"Memory is empty (`chatcli memory save TEXT` adds a note).\n",
		"A memória está vazia (`chatcli memory save TEXTO` adiciona uma nota).\n"},
	{"No contexts (`chatcli context create NAME PATH…` makes one).\n",
		"Nenhum contexto (`chatcli context create NOME CAMINHO…` cria um).\n"},
	{"Memory: %d notes (`chatcli memory show`)\n", "Memória: %[1]d {nota|notas} (`chatcli memory show`)\n"},
	{"Created context %q: %s, %s in %s (left out: %d by .gitignore, %d binary). /context attach %s, in the REPL or a script piped to chatcli, sends it.\n",
		"Contexto '%[1]s' criado: %[2]s, %[3]s em %[4]s (de fora: %[5]d pelo .gitignore, %[6]d binários). /context attach %[7]s, no REPL ou num script enviado por pipe ao chatcli, o envia.\n"},
}

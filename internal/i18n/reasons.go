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

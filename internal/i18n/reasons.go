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

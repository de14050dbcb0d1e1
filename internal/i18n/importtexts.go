package i18n

// importTexts are the catalog of the errors and problem texts of chatcli
// import (package importer and the command's lines on stderr), of the
// record of the folders sessions were used in (package recent) and of the
// @ references of a prompt (package reference): each English format
// (fmt.Errorf's) and its Brazilian Portuguese text, an error argument
// written %[N]v. Tool names, paths, members (info.id, messages[3]) and
// @ references stay as they are.
var importTexts = []struct{ en, pt string }{
	// chatcli import: the tools and their files
	{"importer: unknown tool", "importação: ferramenta desconhecida"},
	{"%w %q: one of %s", "%[1]v %[2]q: use uma de %[3]s"},
	{"importer: %s keeps no files chatcli can find; name the files to read (e.g. what `opencode export` wrote)",
		"importação: %[1]s não guarda arquivos que o chatcli consiga encontrar; indique os arquivos a ler (por exemplo, o que o `opencode export` gravou)"},
	{"importer: %w", "importação: %[1]v"},
	{"%s: %w", "%[1]s: %[2]v"},
	{"not a line this tool writes; skipped", "não é uma linha que esta ferramenta grava; linha pulada"},
	{"not JSON (%v); skipped", "não é JSON (%[1]v); linha pulada"},
	{"%s: not a Gemini CLI chat record: %w", "%[1]s: não é um registro de chat do Gemini CLI: %[2]v"},
	{"%s: not an opencode export: %w", "%[1]s: não é uma exportação do opencode: %[2]v"},
	{"%s: not an opencode export: no info.id", "%[1]s: não é uma exportação do opencode: falta info.id"},
	{"%s: role %q is not opencode's; skipped", "%[1]s: o papel %[2]q não é do opencode; mensagem pulada"},
	// chatcli import: the record of what was imported (imports.json)
	{"importer: another import is running", "importação: outra importação está em andamento"},
	{"importer: damaged import record", "importação: registro de importações danificado"},
	{"%w (lock %s)", "%[1]v (trava %[2]s)"},
	{"importer: read %s: %w", "importação: ler %[1]s: %[2]v"},
	{"importer: write %s: %w", "importação: gravar %[1]s: %[2]v"},
	{"version %d, want 1", "versão %[1]d, o esperado é 1"},
	{"%w: %s: %v (move it aside to start a new one)", "%[1]v: %[2]s: %[3]v (tire-o do lugar para começar um novo)"},
	{"importer: journal of %q: %w", "importação: journal de %[1]q: %[2]v"},
	{"importer: journal %s: %w", "importação: journal %[1]s: %[2]v"},
	// chatcli import: its lines on stderr
	{"import: %s: %v", "import: %[1]s: %[2]v"},
	{"session %s: %w", "sessão %[1]s: %[2]v"},
	{"note: %v", "nota: %[1]v"},
	// the record of the folder each session was last used in (recent.json)
	{"recent: damaged record", "recentes: registro danificado"},
	{"recent: read %s: %w", "recentes: ler %[1]s: %[2]v"},
	{"%w: %s: %v", "%[1]v: %[2]s: %[3]v"},
	{"recent: %w", "recentes: %[1]v"},
	{"recent: lock %s: %v", "recentes: travar %[1]s: %[2]v"},
	{"recent: write %s: %w", "recentes: gravar %[1]s: %[2]v"},
	{"%w; it could not be moved aside: %v", "%[1]v; não foi possível tirá-lo do lugar: %[2]v"},
	{"%w; moved it to %s and started a new one", "%[1]v; ele foi movido para %[2]s e um novo foi começado"},
	// the @ references of a prompt
	{"reference: refused", "referência: recusada"},
	{"@file needs a path", "@file precisa de um caminho"},
	{"@command needs a command line", "@command precisa de uma linha de comando"},
	{"@session needs a query", "@session precisa de uma busca"},
	{"@%s %s: %w", "@%[1]s %[2]s: %[3]v"},
	{"%s is not a regular file", "%[1]s não é um arquivo comum"},
	{"%s is not a text file", "%[1]s não é um arquivo de texto"},
	{"%s has %d bytes, over what @file takes; attach text with /context create instead",
		"%[1]s tem %[2]d bytes, mais do que o @file aceita; anexe o texto com /context create"},
	{"%s has %d bytes, over the %d @file inlines; attach it with /context create instead",
		"%[1]s tem %[2]d bytes, mais que os %[3]d que o @file insere; anexe-o com /context create"},
	{"git %s: %v: %s", "git %[1]s: %[2]v: %[3]s"},
	{"refused: %v", "recusado: %[1]v"},
	{"not allowed", "não permitido"},
}

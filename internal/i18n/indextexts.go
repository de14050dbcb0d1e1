package i18n

// indexErrors are the catalog of the errors of the search index of the
// sessions (package index), made by Errorf: a search that fails, and an
// index file that cannot be trusted, said in the warning of an index
// rebuilt (searchWarnings). The file names and numbers stay as they are.
var indexErrors = []struct{ en, pt string }{
	// kinds of index file that cannot be trusted
	{"index: damaged or foreign index file", "índice: arquivo do índice danificado ou de outro programa"},
	{"index: made under another encryption setting", "índice: feito com outra configuração de criptografia"},
	{"index: index file of an earlier format", "índice: arquivo do índice num formato anterior"},
	{"index: index file written by a newer chatcli", "índice: arquivo do índice gravado por um chatcli mais novo"},
	// what the file system refused
	{"index: %w", "índice: %[1]v"},
	{"index: read %s: %w", "índice: leitura de %[1]s: %[2]v"},
	{"index: append to %s: %w", "índice: acrescentar a %[1]s: %[2]v"},
	{"index: list %s: %w", "índice: listar %[1]s: %[2]v"},
	{"index: lock %s: %w", "índice: travar %[1]s: %[2]v"},
	{"%w: the search index in %s is sealed, and is left as it is (set the key to search, or remove that folder to index the plaintext sessions alone; %v)",
		"%[1]v: o índice de busca em %[2]s está selado e fica como está (defina a chave para buscar, ou remova essa pasta para indexar só as sessões em texto puro; %[3]v)"},
	// a file's header
	{"%w: %s is not a chatcli index file", "%[1]v: %[2]s não é um arquivo de índice do chatcli"},
	{"%w: %s has format version %d; this chatcli reads %d",
		"%[1]v: %[2]s tem a versão de formato %[3]d; este chatcli lê a %[4]d"},
	{"%w: %s has format version %d; this chatcli writes %d",
		"%[1]v: %[2]s tem a versão de formato %[3]d; este chatcli grava a %[4]d"},
	{"%w: %s has version %d, flags %s", "%[1]v: %[2]s tem a versão %[3]d, flags %[4]s"},
	{"%w: %s is sealed and no encryption key is set",
		"%[1]v: %[2]s está selado e nenhuma chave de criptografia está definida"},
	{"%w: %s is plaintext in an encrypted store", "%[1]v: %[2]s está em texto puro num armazenamento criptografado"},
	// the manifest, the log and the segments
	{"%w: %s names %s, which is missing", "%[1]v: %[2]s cita %[3]s, que não existe"},
	{"%w: %s: %d bytes after the manifest", "%[1]v: %[2]s: %[3]d {byte|bytes} depois do manifesto"},
	{"%w: %s: entry at byte %d: %v", "%[1]v: %[2]s: entrada no byte %[3]d: %[4]v"},
	{"written for another manifest (log id %s, the manifest's %s)",
		"gravada para outro manifesto (id do log %[1]s, o do manifesto %[2]s)"},
	{"%w: %s: frame at byte %d: %v", "%[1]v: %[2]s: frame no byte %[3]d: %[4]v"},
	{"%w: %s: frame at byte %d claims %d bytes", "%[1]v: %[2]s: o frame no byte %[3]d diz ter %[4]d {byte|bytes}"},
	{"%w: %s: frame at byte %d cut short: %v", "%[1]v: %[2]s: frame no byte %[3]d cortado: %[4]v"},
	{"%w: %s: frame at byte %d: checksum mismatch", "%[1]v: %[2]s: frame no byte %[3]d: checksum não confere"},
	{"%w: %s is cut short (%d bytes)", "%[1]v: %[2]s está cortado (%[3]d {byte|bytes})"},
	{"%w: %s: trailer checksum mismatch (cut short or overwritten)",
		"%[1]v: %[2]s: o checksum do trailer não confere (cortado ou sobrescrito)"},
	{"%w: %s: dictionary: %v", "%[1]v: %[2]s: dicionário: %[3]v"},
	{"%w: %s: dictionary entry %d: %v", "%[1]v: %[2]s: entrada %[3]d do dicionário: %[4]v"},
	{"%w: %s: dictionary names postings frame %d of %d",
		"%[1]v: %[2]s: o dicionário cita o frame de postings %[3]d de %[4]d"},
	{"%w: %s: postings past the end of frame %d", "%[1]v: %[2]s: postings além do fim do frame %[3]d"},
	{"%w: %s: postings: %v", "%[1]v: %[2]s: postings: %[3]v"},
	{"%w: %s: postings of %q: %v", "%[1]v: %[2]s: postings de %[3]q: %[4]v"},
	{"%w: %s: postings name document %d of %d", "%[1]v: %[2]s: os postings citam o documento %[3]d de %[4]d"},
	{"%w: %s: documents frame claims %d documents",
		"%[1]v: %[2]s: o frame de documentos diz ter %[3]d {documento|documentos}"},
	{"%w: %s: documents: %v", "%[1]v: %[2]s: documentos: %[3]v"},
}

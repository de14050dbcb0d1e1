package i18n

// journalTexts are the catalog of why the journal reader skips a line
// (journal.Warning.Reason) and of the errors of a line that is not a
// record (journal.DecodeRecord), made by Textf and Errorf.
var journalTexts = []struct{ en, pt string }{
	// why a journal line is damaged
	{"empty line", "linha vazia"},
	{"NUL bytes inside the line", "bytes NUL dentro da linha"},
	{"sealed line, and no key to open it", "linha selada, e nenhuma chave para abri-la"},
	{"%d NUL bytes", "%[1]d {byte NUL|bytes NUL}"},
	{"%d NUL bytes before a record", "%[1]d {byte NUL|bytes NUL} antes de um registro"},
	{"%d NUL bytes before a record, then %s", "%[1]d {byte NUL|bytes NUL} antes de um registro, depois %[2]s"},
	{"torn last line, %d bytes without a newline", "última linha cortada, %[1]d {byte|bytes} sem quebra de linha"},
	{"checksum mismatch (stored %s, computed %s)", "checksum não confere (gravado %[1]s, calculado %[2]s)"},
	{"sealed line does not open: %s", "a linha selada não abre: %[1]s"},
	{"%s: skipped a damaged line (%s)", "%[1]s: linha danificada pulada (%[2]s)"},
	// a listing's line for a session whose journal has damaged lines
	{"session %s: %s", "sessão %[1]s: %[2]s"},
	{"session %s: %s, and %d more damaged lines (`chatcli storage verify` lists them)",
		"sessão %[1]s: %[2]s, e mais %[3]d {linha danificada|linhas danificadas} (`chatcli storage verify` lista todas)"},
	// a line that is not a record
	{"%w: %v", "%[1]v: %[2]v"},
	{"%w: checksum mismatch", "%[1]v: checksum não confere"},
	{"%w (stored %s, computed %s)", "%[1]v (gravado %[2]s, calculado %[3]s)"},
	{"%w: message record without message or hash", "%[1]v: registro de mensagem sem a mensagem ou o hash"},
	{"%w: rewrite record with a bad hash", "%[1]v: registro de rewrite com um hash inválido"},
	{"%w: checkpoints record without a list", "%[1]v: registro de checkpoints sem a lista"},
	{"%w: unknown record type %q", "%[1]v: tipo de registro desconhecido %[2]q"},
	{"%w: a checkpoint added that is not an object on a message or rewrite record",
		"%[1]v: um checkpoint adicionado que não é um objeto, ou não está num registro de mensagem ou de rewrite"},
	{"%w: \"kept\" is %d, not the count of checkpoints kept before a checkpoint added",
		"%[1]v: \"kept\" é %[2]d, não o número de checkpoints mantidos antes de um checkpoint adicionado"},
	{"%w: the checksum member is not the record's last member in the form \"crc\":\"<8 hex>\"",
		"%[1]v: o membro do checksum não é o último membro do registro na forma \"crc\":\"<8 hex>\""},
	{"%w: the checksum %q is not 8 lowercase hex digits", "%[1]v: o checksum %[2]q não tem 8 dígitos hexadecimais minúsculos"},
	// a sealed line or envelope that does not open (package seal)
	{"%w: line break inside a sealed line", "%[1]v: quebra de linha dentro de uma linha selada"},
	{"%w: sealed line is not base64: %v", "%[1]v: a linha selada não é base64: %[2]v"},
	{"%w: sealed line holds no envelope", "%[1]v: a linha selada não guarda um envelope"},
	{"%w: sealed line version %s, this build reads v1", "%[1]v: linha selada na versão %[2]s, este chatcli lê a v1"},
	{"%w: malformed sealed-line prefix", "%[1]v: prefixo de linha selada malformado"},
	{"%w: cut short inside the magic", "%[1]v: cortado no meio do número mágico"},
	{"%w: cut short after the magic, no version byte", "%[1]v: cortado depois do número mágico, sem o byte de versão"},
	{"%w: version %d, this build reads versions 1 and 2", "%[1]v: versão %[2]d, este chatcli lê as versões 1 e 2"},
	{"%w: version %d is not the one expected here", "%[1]v: a versão %[2]d não é a esperada aqui"},
	{"%w: %d bytes, too short", "%[1]v: %[2]d {byte|bytes}, curto demais"},
	// records missing from a journal
	{"%w: %s has no record %d", "%[1]v: %[2]s não tem o registro %[3]d"},
	{"%w: %s: the view names message %s, which no record holds",
		"%[1]v: %[2]s: a visão cita a mensagem %[3]s, que nenhum registro guarda"},
}

// jsonWords are the lines of the errors of package encoding/json (and of
// encoding/base64's CorruptInputError), said by their type (Printer.Error): the English key of each form and its
// Brazilian Portuguese text. A JSON error's English text is its own.
var jsonWords = []struct{ en, pt string }{
	{"invalid JSON at byte %d: unexpected character %s", "JSON inválido no byte %[1]d: caractere inesperado %[2]s"},
	{"invalid JSON at byte %d", "JSON inválido no byte %[1]d"},
	{"the JSON ends early (byte %d)", "o JSON termina antes da hora (byte %[1]d)"},
	{"unexpected EOF", "os dados terminam antes da hora"},
	{"json: cannot unmarshal %s into Go struct field %s of type %s",
		"json: não dá para ler %[1]s no campo Go %[2]s, do tipo %[3]s"},
	{"json: cannot unmarshal %s into Go value of type %s", "json: não dá para ler %[1]s num valor Go do tipo %[2]s"},
	{"illegal base64 data at input byte %d", "dados base64 inválidos no byte %[1]d"},
	// the kinds of JSON value (json.UnmarshalTypeError.Value)
	{"number", "um número"},
	{"number %s", "o número %[1]s"},
	{"string", "uma string"},
	{"bool", "um booleano"},
	{"array", "um array"},
	{"object", "um objeto"},
}

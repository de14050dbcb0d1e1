package i18n

// jsonErrors are the catalog of the syntax errors of chatcli's JSON reader
// (package jsonscan), which a user meets inside the error of a session
// file that cannot be read.
var jsonErrors = []struct{ en, pt string }{
	{"jsonscan: invalid JSON", "JSON inválido"},
	{"%w: want an object at byte %d", "%[1]v: esperava um objeto no byte %[2]d"},
	{"%w: want an array at byte %d", "%[1]v: esperava um array no byte %[2]d"},
	{"%w: want a member name at byte %d", "%[1]v: esperava o nome de um membro no byte %[2]d"},
	{"%w: bad member name at byte %d", "%[1]v: nome de membro inválido no byte %[2]d"},
	{"%w: want ':' at byte %d", "%[1]v: esperava ':' no byte %[2]d"},
	{"%w: want ',' or '}' at byte %d", "%[1]v: esperava ',' ou '}' no byte %[2]d"},
	{"%w: want ',' or ']' at byte %d", "%[1]v: esperava ',' ou ']' no byte %[2]d"},
	{"%w: the document ends early (byte %d)", "%[1]v: o documento termina antes da hora (byte %[2]d)"},
	{"%w: unexpected data after the document at byte %d", "%[1]v: dados inesperados depois do documento no byte %[2]d"},
	{"%w: missing value at byte %d", "%[1]v: falta um valor no byte %[2]d"},
	{"%w: unterminated string starting at byte %d", "%[1]v: string sem fim começando no byte %[2]d"},
	{"%w: %s at byte %d", "%[1]v: %[2]s no byte %[3]d"},
	{"want an object or an array", "esperava um objeto ou um array"},
	{"want a member name", "esperava o nome de um membro"},
	{"bad member name", "nome de membro inválido"},
	{"want ':'", "esperava ':'"},
	{"want ',' or '}'", "esperava ',' ou '}'"},
	{"want ',' or ']'", "esperava ',' ou ']'"},
	{"unexpected data after the document", "dados inesperados depois do documento"},
	{"want a value", "esperava um valor"},
	{"invalid literal", "literal inválido"},
	{"invalid number", "número inválido"},
	{"want an array", "esperava um array"},
	{"%w: not a string literal", "%[1]v: não é um literal de string"},
	{"%w: bad escape at byte %d of a string", "%[1]v: escape inválido no byte %[2]d de uma string"},
	{"%w: byte %s inside a string at byte %d", "%[1]v: byte %[2]s dentro de uma string no byte %[3]d"},
}

package i18n

// jsonWords are the lines of the errors of package encoding/json, said by
// their type (Printer.Error): the English key of each form and its
// Brazilian Portuguese text. A JSON error's English text is its own.
var jsonWords = []struct{ en, pt string }{
	{"invalid JSON at byte %d: unexpected character %s", "JSON inválido no byte %[1]d: caractere inesperado %[2]s"},
	{"invalid JSON at byte %d", "JSON inválido no byte %[1]d"},
	{"the JSON ends early (byte %d)", "o JSON termina antes da hora (byte %[1]d)"},
	{"unexpected EOF", "os dados terminam antes da hora"},
	{"json: cannot unmarshal %s into Go struct field %s of type %s",
		"json: não dá para ler %[1]s no campo Go %[2]s, do tipo %[3]s"},
	{"json: cannot unmarshal %s into Go value of type %s", "json: não dá para ler %[1]s num valor Go do tipo %[2]s"},
	// the kinds of JSON value (json.UnmarshalTypeError.Value)
	{"number", "um número"},
	{"number %s", "o número %[1]s"},
	{"string", "uma string"},
	{"bool", "um booleano"},
	{"array", "um array"},
	{"object", "um objeto"},
}

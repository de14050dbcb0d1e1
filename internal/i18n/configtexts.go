package i18n

// configTexts are the catalog of package config's errors (Errorf), of
// package provider's own words of a failure's detail, and of
// the settings' values that are prose (Textf), as chatcli config and
// /config say them.
var configTexts = []struct{ en, pt string }{
	{"%w %s:%d: %q names no setting (chatcli config init writes a template of them all)",
		"%[1]v %[2]s:%[3]d: %[4]q não é o nome de nenhuma configuração (chatcli config init grava um modelo com todas)"},
	{"%w %s:%d: %s: want a string, a number or a boolean",
		"%[1]v %[2]s:%[3]d: %[4]s: esperado um texto, um número ou um booleano"},
	{"%w: CHATCLI_HOME is unset and the home directory is unknown: %v",
		"%[1]v: CHATCLI_HOME não está definida e o diretório home é desconhecido: %[2]v"},
	{"%w: CHATCLI_REQUEST_TIMEOUT=%q: want a duration such as 90s or 10m",
		"%[1]v: CHATCLI_REQUEST_TIMEOUT=%[2]q: esperada uma duração como 90s ou 10m"},
	{"%w: %s=%q: %v", "%[1]v: %[2]s=%[3]q: %[4]v"},
	{"want on or off (1/0, true/false, yes/no, enabled/disabled)",
		"esperado on ou off (1/0, true/false, yes/no, enabled/disabled)"},
	{"%w: CHATCLI_SESSION_TTL=%q: %v", "%[1]v: CHATCLI_SESSION_TTL=%[2]q: %[3]v"},
	{"%w: CHATCLI_SESSION_AUTOSAVE_KEEP=%q: want a number of sessions (0 for no limit)",
		"%[1]v: CHATCLI_SESSION_AUTOSAVE_KEEP=%[2]q: esperado um número de sessões (0 para sem limite)"},
	{"want days such as 90d or 30, a duration such as 12h, or 0 to disable",
		"esperados dias como 90d ou 30, uma duração como 12h, ou 0 para desligar"},
	{"%w: CHATCLI_CONTEXT_WINDOW=%q: want tokens (at least 1024), or model=tokens pairs separated by commas",
		"%[1]v: CHATCLI_CONTEXT_WINDOW=%[2]q: esperados tokens (no mínimo 1024), ou pares modelo=tokens separados por vírgulas"},
	{"%w: %q is not a size: want a positive number of bytes, or one with KB, MB or GB (e.g. 100MB)",
		"%[1]v: %[2]q não é um tamanho: esperado um número positivo de bytes, ou um com KB, MB ou GB (ex.: 100MB)"},
	// package provider's own detail of a failed request (TimeoutCause)
	{"no complete reply within %s", "nenhuma resposta completa em %[1]s"},
	// values
	{"by model", "pelo modelo"},
	{"as CHATCLI_SESSION_AUTOSAVE", "como CHATCLI_SESSION_AUTOSAVE"},
	{"AWS_REGION, else AWS_DEFAULT_REGION, else %s", "AWS_REGION, senão AWS_DEFAULT_REGION, senão %[1]s"},
	{"%s (%d bytes; at most %d lines)", "%[1]s (%[2]d {byte|bytes}; no máximo %[3]d {linha|linhas})"},
	{"invalid: %v", "inválido: %[1]v"},
}

package i18n

// configMessages are the catalog of what /config and chatcli config say
// of a setting's source beyond the settings themselves.
var configMessages = []struct{ en, pt string }{
	{"this session (%s; was: %s)", "nesta sessão (%[1]s; antes: %[2]s)"},
	{"command line (%s; was: %s)", "linha de comando (%[1]s; antes: %[2]s)"},
}

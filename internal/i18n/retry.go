package i18n

// retryMessages are the catalog of the notices that say a provider's
// request is being retried (the conversation engine's, printed as
// "note: …").
var retryMessages = []struct{ en, pt string }{
	{"HTTP %d from %s; retrying in %s s (attempt %d of %d)…",
		"HTTP %[1]d de %[2]s; nova tentativa em %[3]s s (tentativa %[4]d de %[5]d)…"},
	{"%s could not be reached (%v); retrying in %s s (attempt %d of %d)…",
		"não foi possível conectar a %[1]s (%[2]v); nova tentativa em %[3]s s (tentativa %[4]d de %[5]d)…"},
}

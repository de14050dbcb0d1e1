package editor

// keep returns the newest entries of s the history's caps allow: at most
// maxEntries, and, with maxBytes > 0 (HISTORY_MAX_SIZE), only as many of
// the newest as the file holds in maxBytes bytes (each entry encoded on
// its own line).
func (h *history) keep(s []string) []string {
	s = lastN(s, h.maxEntries)
	if h.maxBytes <= 0 {
		return s
	}
	var size int64
	for i := len(s) - 1; i >= 0; i-- {
		if size += int64(len(encodeEntry(s[i])) + 1); size > h.maxBytes {
			return s[i+1:]
		}
	}
	return s
}

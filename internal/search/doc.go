// Package search is full-text search over conversation messages, ranked
// with Okapi BM25. It serves `/session transcript search QUERY` (the
// messages of one journal) and `/session search QUERY` (every session and
// journal): the caller reads the messages (journal.Messages, the session
// store), turns them into Docs (MessageDocs), adds them to an Index and
// searches it.
//
// # Memory only
//
// The persistent, sealed index of a whole store is package index, which
// uses this package's tokens, terms, queries, scores and snippets. An
// Index is an in-memory inverted index. It is never written to disk, so
// with encryption at rest no plaintext leaks through a search index; the
// caller builds one when it needs to search, in a single pass over the
// text. Added documents wait until 8 MB of text has gathered or a search
// begins; then batches of about a megabyte of text are tokenized
// concurrently (GOMAXPROCS), each with a small dictionary of its own, and
// merged in order into the index's dictionary and posting lists. So adding
// messages one at a time costs no more than adding them all at once. The index keeps each
// document's text once (for snippets) and, per term, a posting list of
// (document id, term frequency) pairs, delta- and varint-encoded in one
// byte slice: about 2.3 bytes per posting. A query reads only the posting
// lists of its terms.
//
// # Tokens and terms
//
// A token is a maximal run of Unicode letters, decimal digits and marks;
// everything else (spaces, punctuation, symbols, emoji, "_", "-", ".")
// separates tokens. Han, Hiragana and Katakana characters, which those
// writing systems do not separate into words, are each a token of their
// own, so a query for a Chinese or Japanese word finds the documents
// holding its characters, best where they all occur. A run of Thai, Lao,
// Khmer or Myanmar characters, also written without spaces between words,
// gives one token per pair of neighbouring characters (bigrams, with
// their marks), and a query word of those scripts is the phrase of its
// pairs (ParseQuery), so a word is found inside a sentence.
//
// Every token, in documents and queries alike, is folded into its term:
// NFD, full Unicode case folding (golang.org/x/text/cases.Fold), NFD again,
// every nonspacing mark (Mn) dropped, NFC. So in any script case and
// accents do not matter: "бд" finds "БД", "ärger" finds "ÄRGER", "acao"
// finds "ação", "strasse" finds "STRASSE" and "straße", "σοφος" finds
// "ΣΟΦΌΣ". Dropping marks also merges some distinct words (Japanese "が"
// and "か", Hebrew or Arabic words differing only in vowel points).
//
// # Ranking
//
// A query matches the documents holding any of its terms; Search ranks
// them with BM25 (see Index.Search for the formula and its source), so
// documents holding more of the terms, rarer terms, and more occurrences in
// shorter documents come first. Equal scores are ordered by source, then
// position. ParseQuery reads "phrases" and -exclusions for a positional
// index (package index); Index.Search matches words only. There is no
// prefix search.
//
// # Snippets
//
// Each hit carries a one-line excerpt of the original text around its
// first match (Snippet), cut only between user-perceived characters
// (grapheme clusters, as message.Clip cuts), with "…" where text was cut.
//
// An Index is safe for concurrent use; Add excludes Search while it runs.
package search

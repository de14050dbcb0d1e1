package search

import (
	"math"

	"github.com/chatcli/chatcli/internal/message"
)

// EachToken calls fn with every token of text, in order (see the package
// doc, "Tokens and terms"), until fn returns false. text must be valid
// UTF-8 (message.ValidUTF8). A persistent index numbers the tokens from 0
// as it sees them: those are the positions phrase queries match.
func EachToken(text string, fn func(tok string) bool) {
	tokens(text, func(s, e int) bool { return fn(text[s:e]) })
}

// Fold returns the search term of a token (NFD, case folding, nonspacing
// marks dropped, NFC); "" for a token of marks only, which is not indexed.
func Fold(tok string) string { return fold(tok) }

// SnippetOf is Snippet with the query already split into folded terms
// (Query.Terms): the excerpt is cut around the first token of text that
// folds to one of terms.
func SnippetOf(text string, terms []string, maxChars int) string {
	return snippet(message.ValidUTF8(text), terms, maxChars)
}

// IDF is BM25's inverse document frequency of a term found in df of n
// documents: ln(1 + (n − df + 0.5) / (df + 0.5)) (see Index.Search).
func IDF(n, df float64) float64 { return math.Log(1 + (n-df+0.5)/(df+0.5)) }

// TermScore is one term's BM25 contribution to a document of docLen
// tokens holding it tf times, with k1 = 1.2, b = 0.75 and avgdl the mean
// document length (see Index.Search for the formula and its source).
func TermScore(idf, tf, docLen, avgdl float64) float64 {
	return idf * tf * (bm25K1 + 1) / (tf + bm25K1*(1-bm25B+bm25B*docLen/avgdl))
}

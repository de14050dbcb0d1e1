package index

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// posting is one document of a list as a test builds it.
type posting struct {
	id, tokens uint32
	pos        []uint32
}

// randomList returns n postings of increasing ids, with gaps, of 1-6
// positions each.
func randomList(r *rand.Rand, n int) []posting {
	out := make([]posting, n)
	id := uint32(r.IntN(3))
	for i := range out {
		p := posting{id: id, tokens: uint32(10 + r.IntN(500))}
		at := uint32(r.IntN(4))
		for range 1 + r.IntN(6) {
			p.pos = append(p.pos, at)
			at += 1 + uint32(r.IntN(9))
		}
		out[i] = p
		id += 1 + uint32(r.IntN(5))
	}
	return out
}

// documents returns documents numbered up to the last id of list, each
// of the length its posting says.
func documents(list []posting) []docInfo {
	docs := make([]docInfo, list[len(list)-1].id+1)
	for _, p := range list {
		docs[p.id].tokens = p.tokens
	}
	return docs
}

// TestPostingListsReadBack: lists of one block, of exactly a block and of
// many, read back as written, walked one by one and by advance, with the
// skip entries bounding every block's frequencies and lengths.
func TestPostingListsReadBack(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, n := range []int{1, 2, blockDocs - 1, blockDocs, blockDocs + 1, 5*blockDocs + 17} {
		want := randomList(r, n)
		var p plist
		docs := documents(want)
		for _, d := range want {
			p.appendDoc(d.id, d.pos, docs)
		}
		data := p.appendTo(nil, docs)
		var c postingCursor
		i := 0
		for c.open(data, uint64(n)); c.ok(); c.next() {
			d := want[i]
			if c.doc() != d.id || !slices.Equal(c.positions(), d.pos) {
				t.Fatalf("%d postings: #%d is %d %v, want %d %v", n, i, c.doc(), c.positions(), d.id, d.pos)
			}
			if n > blockDocs && (d.id > c.cur.last || !slices.ContainsFunc(c.cur.impacts[:c.cur.nImpacts], func(m impact) bool {
				return m.tf >= uint32(c.tf()) && m.len <= d.tokens
			})) {
				t.Fatalf("%d postings: #%d (tf %d, %d terms) outside its block's entry %+v", n, i, c.tf(), d.tokens, c.cur)
			}
			i++
		}
		if c.err != nil || i != n {
			t.Fatalf("%d postings: read %d, %v", n, i, c.err)
		}
		for range 50 { // advance to a random id, then read on
			target := uint32(r.IntN(int(want[n-1].id) + 3))
			k, _ := slices.BinarySearchFunc(want, target, func(p posting, id uint32) int { return int(p.id) - int(id) })
			c.open(data, uint64(n))
			if !c.advance(target) {
				if k != n {
					t.Fatalf("%d postings: advance(%d) found nothing, want %d", n, target, want[k].id)
				}
				continue
			}
			if k == n || c.doc() != want[k].id || !slices.Equal(c.positions(), want[k].pos) {
				t.Fatalf("%d postings: advance(%d) at %d %v, want #%d", n, target, c.doc(), c.positions(), k)
			}
		}
	}
}

// TestDamagedPostingListsAreReported: a list cut anywhere, or read with a
// wrong number of documents, ends with an error rather than made-up
// postings.
func TestDamagedPostingListsAreReported(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	var p plist
	want := randomList(r, 3*blockDocs+5)
	docs := documents(want)
	for _, d := range want {
		p.appendDoc(d.id, d.pos, docs)
	}
	data := p.appendTo(nil, docs)
	check := func(what string, data []byte, df int) {
		var c postingCursor
		n := 0
		for c.open(data, uint64(df)); c.ok(); c.next() {
			c.positions()
			n++
		}
		if c.err == nil && n == len(want) && df == len(want) && len(data) == len(p.appendTo(nil, docs)) {
			return
		}
		if c.err == nil {
			t.Errorf("%s: %d postings read and no error", what, n)
		}
	}
	for cut := 0; cut < len(data); cut += 1 + len(data)/97 {
		check("cut", data[:cut], len(want))
	}
	check("df one less", data, len(want)-1)
	check("df one more", data, len(want)+1)
}

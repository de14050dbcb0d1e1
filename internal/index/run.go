package index

import (
	"cmp"
	"encoding/binary"
	"encoding/hex"
	"hash/fnv"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"

	"github.com/chatcli/chatcli/internal/atomicfile"
	"github.com/chatcli/chatcli/internal/i18n"
	"github.com/chatcli/chatcli/internal/journal"
	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/search"
)

// segmentTextBytes is how much message text one worker gathers, at
// most, before it writes a segment: it bounds a build's memory.
var segmentTextBytes = 64 << 20

// progressBytes is how often, in bytes read, Options.Progress hears.
const progressBytes = 1 << 20

// buildGCPercent is the garbage collector's target while a large build
// runs (runtime/debug.SetGCPercent): the builders' maps are long-lived, so
// collecting at the default 100 % would mostly rescan them. buildMemBytes
// caps the heap that target lets grow (runtime/debug.SetMemoryLimit, a
// soft limit): past it the collector runs sooner, so a build's peak stays
// near it rather than at five times what the builders hold.
const (
	buildGCPercent = 400
	buildMemBytes  = 256 << 20
)

// mark is what a worker's builder holds of one source: the watermark and
// counts the source takes once the builder is written.
type mark struct {
	pos            journal.Pos
	messages, docs int
	tokens         int64
	version        string // the snapshot's (snapshot sources)
}

// worker reads jobs into its own builder; one per CPU share the jobs.
type worker struct {
	ix      *Index
	b       *builder
	pending map[*source]mark
	tell    func(int64)
}

// run reads jobs into new segments and writes the manifest naming them,
// with one worker per CPU. A worker writes a segment whenever
// segmentTextBytes of text gathered, with a manifest whose watermarks
// cover exactly what the written segments hold, so an interrupted build
// resumes where it stopped. The manifest is written even without jobs
// (the sources changed in plan).
func (ix *Index) run(jobs []job) ([]i18n.Text, error) {
	var total, done, told int64
	for _, j := range jobs {
		total += j.bytes
	}
	var mu sync.Mutex // guards done, told, warnings, and the manifest once workers run
	tell := func(n int64) {
		mu.Lock()
		defer mu.Unlock()
		done += n
		if ix.o.Progress != nil && done-told >= progressBytes {
			told = done
			ix.o.Progress(done, total)
		}
	}
	if total > int64(segmentTextBytes) {
		defer debug.SetGCPercent(debug.SetGCPercent(buildGCPercent))
		if limit := debug.SetMemoryLimit(-1); limit > buildMemBytes {
			defer debug.SetMemoryLimit(debug.SetMemoryLimit(buildMemBytes))
		}
	}
	var warnings []i18n.Text
	var failed error
	queue := make(chan job)
	var wg sync.WaitGroup
	for range max(1, min(runtime.GOMAXPROCS(0), len(jobs))) {
		w := &worker{ix: ix, b: newBuilder(), pending: map[*source]mark{}, tell: tell}
		wg.Go(func() {
			for j := range queue {
				skipped, err := w.read(j, &mu)
				mu.Lock()
				warnings = append(warnings, skipped...)
				switch _, ok := err.(flushError); {
				case ok && failed == nil:
					failed = err
				case err != nil && !ok:
					warnings = append(warnings, ix.unread(w, j, err)...)
				}
				mu.Unlock()
			}
			if err := w.flush(&mu); err != nil {
				mu.Lock()
				failed = cmp.Or(failed, err)
				mu.Unlock()
			}
		})
	}
	for _, j := range jobs {
		mu.Lock()
		stop := failed != nil
		mu.Unlock()
		if stop {
			break
		}
		queue <- j
	}
	close(queue)
	wg.Wait()
	if failed != nil {
		return warnings, failed
	}
	if ix.o.Progress != nil && total > 0 {
		ix.o.Progress(total, total)
	}
	if len(jobs) == 0 {
		if err := ix.storeManifest(); err != nil {
			return warnings, err
		}
	}
	ix.removeStrays()
	return warnings, nil
}

// unread forgets what w read of job j, whose source could not be read
// (err, not a flushError): what it added becomes a tombstone, and the
// source is read again by the next update. It returns the warning.
func (ix *Index) unread(w *worker, j job, err error) []i18n.Text {
	ix.man.drop(j.src)
	ix.dead[j.src.Slot] = true
	delete(w.pending, j.src)
	return []i18n.Text{i18n.Textf("%s", err)}
}

// flushError is an error writing the index, which stops a Sync.
type flushError struct{ error }

func (e flushError) Unwrap() error { return e.error }

// read indexes job j and returns the warnings naming the damaged journal
// lines it skipped; errors other than flushErrors concern j's source.
func (w *worker) read(j job, mu *sync.Mutex) ([]i18n.Text, error) {
	s := j.src
	m := mark{pos: s.Pos, messages: s.Messages, docs: s.Docs, tokens: s.Tokens, version: j.version}
	add := func(d docInfo, text string) {
		d.slot = s.Slot
		w.b.add(d, text)
		m.docs++
		m.tokens += int64(w.b.docs[len(w.b.docs)-1].tokens)
	}
	if j.path == "" {
		err := w.ix.readSnapshot(j, &m, add)
		w.tell(j.bytes)
		if err == nil {
			w.pending[s] = m
		}
		return nil, err
	}
	last := s.Pos.Offset
	end, damaged, err := journal.ScanAfter(j.path, w.ix.key, s.Pos, func(r journal.Record, before journal.Pos) error {
		w.tell(before.Offset - last)
		last = before.Offset
		if w.b.textBytes >= segmentTextBytes {
			m.pos = before
			w.pending[s] = m
			if err := w.flush(mu); err != nil {
				return flushError{err}
			}
		}
		if r.Type != journal.TypeMessage || r.Message == nil {
			return nil
		}
		m.messages++
		if text := message.ValidUTF8(search.MessageText(r.Message)); text != "" {
			d := docInfo{position: uint32(m.messages), role: string(r.Message.Role), family: family(r.Hash, m.messages), before: before}
			if !r.At.IsZero() {
				d.at = r.At.Unix()
			}
			add(d, text)
		}
		return nil
	})
	w.tell(end.Offset - last)
	var skipped []i18n.Text
	for _, d := range damaged {
		skipped = append(skipped, d.Said())
	}
	if err != nil {
		if fe, ok := err.(flushError); ok {
			return skipped, fe
		}
		return skipped, i18n.Errorf("skipped journal %s: %w", s.Journal, err)
	}
	m.pos = end
	w.pending[s] = m
	return skipped, nil
}

// flush writes w's builder as a segment, gives the sources it holds their
// new watermarks and counts, and stores the manifest.
func (w *worker) flush(mu *sync.Mutex) error {
	mu.Lock()
	defer mu.Unlock()
	if len(w.b.docs) == 0 && len(w.pending) == 0 {
		return nil
	}
	if len(w.b.docs) > 0 {
		if err := w.ix.writeSegment(w.b); err != nil {
			return err
		}
	}
	w.settle()
	w.b = newBuilder()
	return w.ix.storeManifest()
}

// settle gives the sources w read their new watermarks and counts, once
// what w read of them is written.
func (w *worker) settle() {
	for s, m := range w.pending {
		s.Pos, s.Messages, s.Docs, s.Tokens, s.Version = m.pos, m.messages, m.docs, m.tokens, m.version
	}
	clear(w.pending)
}

// readSnapshot indexes the history of j's session, which has no journal.
func (ix *Index) readSnapshot(j job, m *mark, add func(docInfo, string)) error {
	sess, err := ix.o.Store.Load(j.head.Name)
	if err != nil {
		return i18n.Errorf("skipped session %q: %w", j.head.Name, err)
	}
	at := j.head.UpdatedAt.Unix()
	for i, h := range journal.HashHistory(sess.History) {
		msg := &sess.History[i]
		m.messages++
		if text := message.ValidUTF8(search.MessageText(msg)); text != "" {
			add(docInfo{position: uint32(i + 1), role: string(msg.Role), at: at, family: family(h, i+1)}, text)
		}
	}
	return nil
}

// family is the fork-family key of the message of hash at position: the
// same message at the same place of two forks of one conversation has the
// same key (FNV-1a of the hash's bytes and the position).
func family(hash string, position int) uint64 {
	h := fnv.New64a()
	if raw, err := hex.DecodeString(hash); err == nil {
		h.Write(raw)
	} else {
		h.Write([]byte(hash))
	}
	h.Write(binary.AppendUvarint(nil, uint64(position)))
	return h.Sum64()
}

// writeSegment writes b as a new segment, durably, and adds it to the
// manifest (in memory: the caller stores the manifest).
func (ix *Index) writeSegment(b *builder) error {
	name := segmentFile(ix.man.NextSegment)
	data, err := encodeSegment(name, ix.key, b.docs, b.sorted())
	if err != nil {
		return err
	}
	if err := atomicfile.WriteFile(filepath.Join(ix.dir, name), data); err != nil {
		return err
	}
	ix.man.NextSegment++
	s, err := openSegment(ix.dir, name, ix.key)
	if err != nil {
		return err
	}
	ix.segs[name] = s
	ix.man.Segments = append(ix.man.Segments, segmentMeta{File: name, Docs: len(b.docs), Bytes: int64(len(data))})
	return nil
}

// removeStrays removes segment files the manifest does not name, and the
// temporary files of segments and manifests (atomicfile.TempPattern):
// left by a build or merge that was interrupted. The caller holds the
// write lock, so no write of another process is under way; while a merge
// of this process runs in the background, its files and every temporary
// file are left alone.
func (ix *Index) removeStrays() {
	entries, _ := os.ReadDir(ix.dir)
	for _, e := range entries {
		n := e.Name()
		stray := strings.HasPrefix(n, segmentPrefix) && ix.segs[n] == nil || isLogSegment(n) && n != ix.man.Log
		temp := strings.HasPrefix(n, "."+segmentPrefix) || strings.HasPrefix(n, "."+logPrefix) ||
			strings.HasPrefix(n, "."+manifestName+".tmp-")
		if j := ix.job; j != nil && (temp || j.holds(n)) {
			continue
		}
		if stray || temp {
			os.Remove(filepath.Join(ix.dir, n))
		}
	}
}

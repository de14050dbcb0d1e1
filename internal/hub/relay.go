package hub

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"sync"
)

// Backlog is how many turns of a thread's current epoch a relay keeps for
// the members that join later.
const Backlog = 20

// MaxLine bounds one line of the wire format, in bytes.
const MaxLine = 1 << 20

// Kinds of Event.
const (
	KindJoined  = "joined"  // to the member that joined: Epoch and Backlog
	KindTurn    = "turn"    // another member's turn
	KindRotated = "rotated" // another member rotated the thread (From)
)

// Turn is one exchange a member had: its prompt and the reply.
type Turn struct {
	Thread string `json:"thread"`
	// Epoch is the thread's epoch the member was in when the turn ended;
	// a turn of an older epoch (it ended after a rotation) is dropped.
	Epoch  int    `json:"epoch"`
	From   string `json:"from"`
	Prompt string `json:"prompt"`
	Reply  string `json:"reply"`
}

// Event is what a member is told.
type Event struct {
	Kind    string `json:"kind"`
	Thread  string `json:"thread"`
	Epoch   int    `json:"epoch"`
	From    string `json:"from,omitempty"`
	Turn    *Turn  `json:"turn,omitempty"`
	Backlog []Turn `json:"backlog,omitempty"`
}

// thread is one hub thread: its epoch, backlog and members.
type thread struct {
	epoch   int
	backlog []Turn
	members map[*Member]bool
}

// Relay holds the threads and relays each member's turns to the others
// of its thread. It is safe for concurrent use.
type Relay struct {
	mu      sync.Mutex
	threads map[string]*thread
}

// NewRelay returns a relay with no threads.
func NewRelay() *Relay { return &Relay{threads: map[string]*thread{}} }

// Member is one participant of a thread: a REPL or a chat.
type Member struct {
	r       *Relay
	name    string
	thread  string
	epoch   int
	deliver func(Event)
}

// Join makes name a member of thread (created when missing) with deliver
// receiving the events, first a KindJoined one with the backlog. deliver
// is called with none of the relay's locks held, from the goroutine of the
// member that caused the event; it should not block for long.
func (r *Relay) Join(threadName, name string, deliver func(Event)) *Member {
	m := &Member{r: r, name: name, thread: threadName, deliver: deliver}
	r.mu.Lock()
	t := r.threads[threadName]
	if t == nil {
		t = &thread{members: map[*Member]bool{}}
		r.threads[threadName] = t
	}
	t.members[m] = true
	m.epoch = t.epoch
	ev := Event{Kind: KindJoined, Thread: threadName, Epoch: t.epoch, Backlog: append([]Turn(nil), t.backlog...)}
	r.mu.Unlock()
	deliver(ev)
	return m
}

// Thread is the name of m's thread.
func (m *Member) Thread() string { return m.thread }

// Members is how many members m's thread has, m included.
func (m *Member) Members() int {
	m.r.mu.Lock()
	defer m.r.mu.Unlock()
	if t := m.r.threads[m.thread]; t != nil {
		return len(t.members)
	}
	return 0
}

// Leave ends m's membership; an emptied thread is forgotten.
func (m *Member) Leave() {
	m.r.mu.Lock()
	defer m.r.mu.Unlock()
	if t := m.r.threads[m.thread]; t != nil {
		delete(t.members, m)
		if len(t.members) == 0 {
			delete(m.r.threads, m.thread)
		}
	}
}

// Epoch is the current epoch of m's thread, as m last heard of it.
func (m *Member) Epoch() int {
	m.r.mu.Lock()
	defer m.r.mu.Unlock()
	return m.epoch
}

// Publish relays one of m's turns to the other members and keeps it in the
// backlog, unless the thread was rotated since epoch, the Epoch m was in
// when the turn started (the turn then belongs to the conversation left
// behind and is dropped).
func (m *Member) Publish(epoch int, prompt, reply string) {
	m.r.mu.Lock()
	t := m.r.threads[m.thread]
	if t == nil || !t.members[m] || epoch != t.epoch {
		m.r.mu.Unlock()
		return
	}
	turn := Turn{Thread: m.thread, Epoch: t.epoch, From: m.name, Prompt: prompt, Reply: reply}
	t.backlog = append(t.backlog, turn)
	if len(t.backlog) > Backlog {
		t.backlog = t.backlog[len(t.backlog)-Backlog:]
	}
	others := t.others(m)
	m.r.mu.Unlock()
	for _, o := range others {
		o.deliver(Event{Kind: KindTurn, Thread: m.thread, Epoch: turn.Epoch, From: m.name, Turn: &turn})
	}
}

// Rotate starts a new epoch of m's thread: the backlog is dropped, turns
// that end in the old epoch are not relayed, and the other members are
// told (KindRotated; m too, so that a client learns the new epoch).
// /session load and /session new rotate, so that no backlog of the
// conversation left behind lands on the one loaded.
func (m *Member) Rotate() {
	m.r.mu.Lock()
	t := m.r.threads[m.thread]
	if t == nil || !t.members[m] {
		m.r.mu.Unlock()
		return
	}
	t.epoch++
	t.backlog = nil
	for o := range t.members {
		o.epoch = t.epoch
	}
	all, epoch := append(t.others(m), m), t.epoch
	m.r.mu.Unlock()
	for _, o := range all {
		o.deliver(Event{Kind: KindRotated, Thread: m.thread, Epoch: epoch, From: m.name})
	}
}

func (t *thread) others(m *Member) []*Member {
	var out []*Member
	for o := range t.members {
		if o != m {
			out = append(out, o)
		}
	}
	return out
}

// request is one line a client sends: Op "join" (Thread, From), "turn"
// (Epoch, Prompt, Reply), "rotate" or "leave".
type request struct {
	Op     string `json:"op"`
	Epoch  int    `json:"epoch,omitempty"`
	Thread string `json:"thread,omitempty"`
	From   string `json:"from,omitempty"`
	Prompt string `json:"prompt,omitempty"`
	Reply  string `json:"reply,omitempty"`
}

// Serve accepts clients (Dial) on the Unix socket at path until ctx ends.
// A socket file left at path by a process that is gone is replaced; one
// that answers is another relay, and Serve fails with ErrRunning.
func (r *Relay) Serve(ctx context.Context, path string) error {
	if c, err := net.Dial("unix", path); err == nil {
		c.Close()
		return fmt.Errorf("%w at %s", ErrRunning, path)
	}
	os.Remove(path) // a stale socket: nothing answers at it
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	l, err := net.Listen("unix", path)
	if err != nil {
		return fmt.Errorf("hub: %w", err)
	}
	os.Chmod(path, 0o600)
	var wg sync.WaitGroup
	go func() { <-ctx.Done(); l.Close() }()
	for {
		c, err := l.Accept()
		if err != nil {
			wg.Wait()
			if ctx.Err() != nil {
				return nil
			}
			return fmt.Errorf("hub: %w", err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			stop := context.AfterFunc(ctx, func() { c.Close() })
			defer stop()
			r.serveConn(c)
		}()
	}
}

// ErrRunning is returned by Serve when a relay already answers at the path.
var ErrRunning = errors.New("hub: a relay is already running")

// serveConn serves one client until it hangs up.
func (r *Relay) serveConn(c net.Conn) {
	defer c.Close()
	var wmu sync.Mutex
	enc := json.NewEncoder(c)
	var m *Member
	defer func() {
		if m != nil {
			m.Leave()
		}
	}()
	sc := bufio.NewScanner(c)
	sc.Buffer(make([]byte, 64<<10), MaxLine)
	for sc.Scan() {
		var q request
		if json.Unmarshal(sc.Bytes(), &q) != nil {
			return
		}
		switch {
		case q.Op == "join" && q.Thread != "":
			if m != nil {
				m.Leave()
			}
			m = r.Join(q.Thread, q.From, func(ev Event) { wmu.Lock(); enc.Encode(ev); wmu.Unlock() })
		case q.Op == "turn" && m != nil:
			m.Publish(q.Epoch, q.Prompt, q.Reply)
		case q.Op == "rotate" && m != nil:
			m.Rotate()
		case q.Op == "leave" && m != nil:
			m.Leave()
			m = nil
		}
	}
}

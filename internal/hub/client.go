package hub

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net"
	"path/filepath"
	"sync"
)

// SocketPath is where chatcli gateway serves the hub: CHATCLI_HOME/gateway/hub.sock.
func SocketPath(home string) string { return filepath.Join(home, "gateway", "hub.sock") }

// Client is a member of a thread of the relay at a socket (a REPL's
// membership). Its methods are safe for concurrent use.
type Client struct {
	c      net.Conn
	thread string

	mu    sync.Mutex
	epoch int
	done  chan struct{}
}

// Dial joins thread as name at the relay serving path; deliver receives
// the events (first KindJoined) from a goroutine of the Client's until the
// connection ends. Errors: no relay answers at path (chatcli gateway is
// not running).
func Dial(path, threadName, name string, deliver func(Event)) (*Client, error) {
	c, err := net.Dial("unix", path)
	if err != nil {
		return nil, fmt.Errorf("hub: no relay at %s (chatcli gateway serves it): %w", path, err)
	}
	cl := &Client{c: c, thread: threadName, done: make(chan struct{})}
	if err := cl.send(request{Op: "join", Thread: threadName, From: name}); err != nil {
		c.Close()
		return nil, err
	}
	go func() {
		defer close(cl.done)
		sc := bufio.NewScanner(c)
		sc.Buffer(make([]byte, 64<<10), MaxLine)
		for sc.Scan() {
			var ev Event
			if json.Unmarshal(sc.Bytes(), &ev) != nil {
				continue
			}
			if ev.Kind == KindJoined || ev.Kind == KindRotated {
				cl.mu.Lock()
				cl.epoch = ev.Epoch
				cl.mu.Unlock()
			}
			deliver(ev)
		}
	}()
	return cl, nil
}

func (cl *Client) send(q request) error {
	line, _ := json.Marshal(q)
	cl.mu.Lock()
	defer cl.mu.Unlock()
	_, err := cl.c.Write(append(line, '\n'))
	return err
}

// Thread is the name of the thread joined.
func (cl *Client) Thread() string { return cl.thread }

// Epoch is the thread's epoch as last heard.
func (cl *Client) Epoch() int {
	cl.mu.Lock()
	defer cl.mu.Unlock()
	return cl.epoch
}

// Publish relays a turn that started in epoch (see Member.Publish).
func (cl *Client) Publish(epoch int, prompt, reply string) error {
	return cl.send(request{Op: "turn", Epoch: epoch, Prompt: prompt, Reply: reply})
}

// Rotate starts a new epoch of the thread (Member.Rotate).
func (cl *Client) Rotate() error { return cl.send(request{Op: "rotate"}) }

// Close leaves the thread and hangs up.
func (cl *Client) Close() error {
	cl.send(request{Op: "leave"})
	err := cl.c.Close()
	<-cl.done
	return err
}

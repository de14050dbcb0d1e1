package render

import (
	"fmt"
	"io"
	"sync"
	"time"

	"charm.land/bubbles/v2/spinner"
)

// spinnerDelay is how long an activity runs before the spinner appears, so
// a quick reply does not flash one.
const spinnerDelay = 150 * time.Millisecond

// Spinner shows what chatcli is waiting for on one terminal line, with the
// seconds elapsed ("⣾ waiting for the model… 3s"), redrawn in place with a
// carriage return and cleared (CR, then erase to the end of the line) when
// it stops. Frames are bubbles' spinner.Dot at its rate. It is safe for
// concurrent use.
type Spinner struct {
	out   io.Writer
	delay time.Duration

	mu   sync.Mutex
	stop chan struct{} // closed to stop the running spinner; nil when none
	done chan struct{} // closed when its goroutine has cleared the line
}

// NewSpinner returns a Spinner drawing on out, which must be a terminal.
func NewSpinner(out io.Writer) *Spinner {
	return &Spinner{out: out, delay: spinnerDelay}
}

// Start shows label until Stop (replacing a spinner already running). It
// returns Stop, for defer.
func (s *Spinner) Start(label string) (stop func()) {
	s.Stop()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stop, s.done = make(chan struct{}), make(chan struct{})
	go s.run(label, s.stop, s.done)
	return s.Stop
}

// Stop clears the spinner's line and returns once it is cleared; without a
// running spinner, or on a nil Spinner, it does nothing.
func (s *Spinner) Stop() {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stop == nil {
		return
	}
	close(s.stop)
	<-s.done
	s.stop, s.done = nil, nil
}

// run draws frames until stop is closed, then clears what it drew.
func (s *Spinner) run(label string, stop, done chan struct{}) {
	defer close(done)
	start := time.Now()
	select {
	case <-stop:
		return
	case <-time.After(s.delay):
	}
	tick := time.NewTicker(spinner.Dot.FPS)
	defer tick.Stop()
	for i := 0; ; i++ {
		frame := spinner.Dot.Frames[i%len(spinner.Dot.Frames)]
		fmt.Fprintf(s.out, "\r%s%s… %ds\x1b[K", frame, label, int(time.Since(start).Seconds()))
		select {
		case <-stop:
			io.WriteString(s.out, "\r\x1b[K")
			return
		case <-tick.C:
		}
	}
}

// Before returns a writer that calls each of fns before every write to w:
// Spinner.Stop, so that output (a reply's first token, a notice, a
// question) is never mixed with the spinner's frames and the spinner is
// gone the moment output starts; Stream.Flush, so that a reply's text
// comes before what is written next.
func Before(w io.Writer, fns ...func()) io.Writer { return before{w: w, fns: fns} }

type before struct {
	w   io.Writer
	fns []func()
}

func (b before) Write(p []byte) (int, error) {
	for _, f := range b.fns {
		f()
	}
	return b.w.Write(p)
}

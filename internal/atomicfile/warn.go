package atomicfile

import (
	"fmt"
	"sync"
)

// warnings holds what this process met that a person should hear once.
var warnings struct {
	mu        sync.Mutex
	seen      []string
	delivered int // seen[:delivered] went to a WarnFunc
	fn        func(string)
	syncNoSup bool // the fsync warning was given
}

// Warnings returns the warnings this process met so far, oldest first, one
// line each: today at most one, the first time an fsync answered EINVAL or
// ENOTSUP ("fsync is not supported on <path> (<cause>): files written
// there count as written but may not survive a crash; said once").
func Warnings() []string {
	warnings.mu.Lock()
	defer warnings.mu.Unlock()
	return append([]string(nil), warnings.seen...)
}

// SetWarnFunc makes fn hear each warning once, when it is met; warnings
// met before fn was set are given to it at once. fn runs on the goroutine
// that met the warning. nil stops the calls. Surfaces
// set it at start-up (chatcli prints "warning: <line>" on stderr).
func SetWarnFunc(fn func(string)) {
	warnings.mu.Lock()
	warnings.fn = fn
	deliver()
}

// warnSyncNotSupported records the fsync warning the first time.
func warnSyncNotSupported(path string, err error) {
	warnings.mu.Lock()
	if warnings.syncNoSup {
		warnings.mu.Unlock()
		return
	}
	warnings.syncNoSup = true
	warnings.seen = append(warnings.seen, fmt.Sprintf(
		"fsync is not supported on %s (%v): files written there count as written but may not survive a crash; said once", path, err))
	deliver()
}

// deliver takes the warnings the WarnFunc has not heard, releases
// warnings.mu (held by the caller), then gives them to it, outside the
// lock, so fn may use this package.
func deliver() {
	fn, pending := warnings.fn, warnings.seen[warnings.delivered:]
	if fn != nil {
		warnings.delivered = len(warnings.seen)
	}
	warnings.mu.Unlock()
	if fn == nil {
		return
	}
	for _, w := range pending {
		fn(w)
	}
}

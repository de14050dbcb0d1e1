//go:build unix

package bench

import (
	"syscall"
	"time"
)

// cpuTime returns the user and system time the process has used
// (getrusage(2)).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

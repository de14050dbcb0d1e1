//go:build !unix

package bench

import "time"

// cpuTime is zero where getrusage(2) is not used: cpu-ms/op reads 0.
func cpuTime() time.Duration { return 0 }

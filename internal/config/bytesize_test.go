package config

import (
	"errors"
	"testing"
)

func TestParseByteSize(t *testing.T) {
	for in, want := range map[string]int64{
		"100MB": 100 << 20, "1GB": 1 << 30, "512KB": 512 << 10, "4096": 4096,
		" 2 mb ": 2 << 20, "7kb": 7 << 10, "8589934591GB": 8589934591 << 30,
	} {
		if got, err := ParseByteSize(in); err != nil || got != want {
			t.Errorf("ParseByteSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "MB", "0", "-5MB", "100M", "1.5GB", "1TB", "lots", "8589934592GB", "99999999999999999999"} {
		if n, err := ParseByteSize(in); !errors.Is(err, ErrConfig) {
			t.Errorf("ParseByteSize(%q) = %d, %v; want an ErrConfig", in, n, err)
		}
	}
}

func TestFormatByteSize(t *testing.T) {
	for n, want := range map[int64]string{100 << 20: "100MB", 1536 << 10: "1536KB", 100: "100", 1 << 30: "1GB"} {
		if got := FormatByteSize(n); got != want {
			t.Errorf("FormatByteSize(%d) = %q, want %q", n, got, want)
		}
		if back, err := ParseByteSize(FormatByteSize(n)); err != nil || back != n {
			t.Errorf("round trip of %d: %d %v", n, back, err)
		}
	}
}

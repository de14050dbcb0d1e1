package config

import (
	"math"
	"strconv"
	"strings"

	"github.com/chatcli/chatcli/internal/i18n"
)

// DefaultHistoryMaxBytes caps the input history file when HISTORY_MAX_SIZE
// is unset: 100 MB, ChatCLI's default (config.DefaultMaxHistorySize).
const DefaultHistoryMaxBytes = 100 << 20

// byteUnits are the suffixes ParseByteSize knows, with their multipliers.
var byteUnits = []struct {
	suffix string
	bytes  int64
}{{"KB", 1 << 10}, {"MB", 1 << 20}, {"GB", 1 << 30}}

// ParseByteSize reads a size in bytes as ChatCLI reads HISTORY_MAX_SIZE
// (diillson/chatcli utils.ParseSize): surrounding spaces ignored, an
// optional unit KB, MB or GB in any case (powers of 1024: 512KB is
// 524,288 bytes, 100MB 104,857,600, 1GB 1,073,741,824), the rest a
// decimal integer ("4096" is 4,096 bytes). ChatCLI falls back to its
// default for a value it cannot read or that is not positive; chatcli
// refuses it: the error (wrapping ErrConfig) names the value and the
// forms it takes, and a size past the int64 range is refused too.
func ParseByteSize(s string) (int64, error) {
	v := strings.ToUpper(strings.TrimSpace(s))
	unit := int64(1)
	for _, u := range byteUnits {
		if strings.HasSuffix(v, u.suffix) {
			v, unit = strings.TrimSpace(strings.TrimSuffix(v, u.suffix)), u.bytes
			break
		}
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n <= 0 || n > math.MaxInt64/unit {
		return 0, i18n.Errorf("%w: %q is not a size: want a positive number of bytes, or one with KB, MB or GB (e.g. 100MB)", ErrConfig, s)
	}
	return n * unit, nil
}

// FormatByteSize writes n bytes in the largest unit of ParseByteSize that
// divides it ("100MB", "1536KB", "100").
func FormatByteSize(n int64) string {
	for i := len(byteUnits) - 1; i >= 0; i-- {
		if u := byteUnits[i]; n >= u.bytes && n%u.bytes == 0 {
			return strconv.FormatInt(n/u.bytes, 10) + u.suffix
		}
	}
	return strconv.FormatInt(n, 10)
}

// historySizeSetting is how `chatcli config` shows HISTORY_MAX_SIZE: the
// size and its bytes, or the error of a value that cannot be read.
func historySizeSetting(c Config) string {
	if c.HistoryErr != nil {
		return "invalid: " + c.HistoryErr.Error()
	}
	return historySizeText(c).String()
}

// historySizeText is historySizeSetting as a catalog phrase.
func historySizeText(c Config) i18n.Text {
	if c.HistoryErr != nil {
		return i18n.Textf("invalid: %v", c.HistoryErr)
	}
	return i18n.Textf("%s (%d bytes; at most %d lines)", FormatByteSize(c.HistoryMaxBytes), c.HistoryMaxBytes, c.HistoryMax)
}

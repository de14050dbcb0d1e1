package i18n

import (
	"testing"
	"time"

	"github.com/dustin/go-humanize"
)

// Ages are humanize's in English, and Portuguese at every step of it.
func TestAgesInBothLanguages(t *testing.T) {
	now := time.Date(2026, 12, 1, 20, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		ago    time.Duration
		pt, en string
	}{
		{0, "agora", "now"},
		{time.Second, "há 1 segundo", "1 second ago"},
		{3 * time.Hour, "há 3 horas", "3 hours ago"},
		{30 * time.Hour, "há 1 dia", "1 day ago"},
		{3 * humanize.Week, "há 3 semanas", "3 weeks ago"},
		{45 * humanize.Day, "há 1 mês", "1 month ago"},
		{20 * humanize.Month, "há 2 anos", "2 years ago"},
		{-3 * time.Hour, "daqui a 3 horas", "3 hours from now"},
	} {
		then := now.Add(-c.ago)
		if got := New(English).Age(then, now); got != c.en || got != humanize.RelTime(then, now, "ago", "from now") {
			t.Errorf("%v in English: %q, want %q", c.ago, got, c.en)
		}
		if got := New(Portuguese).Age(then, now); got != c.pt {
			t.Errorf("%v in Portuguese: %q, want %q", c.ago, got, c.pt)
		}
	}
}

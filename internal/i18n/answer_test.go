package i18n

import "testing"

func TestAgrees(t *testing.T) {
	pt, en := New(Portuguese), New(English)
	for _, c := range []struct {
		answer string
		pt, en bool
	}{
		{"y", true, true}, {"Yes", true, true}, {" s\n", true, false}, {"SIM", true, false},
		{"", false, false}, {"n", false, false}, {"não", false, false}, {"sure", false, false},
	} {
		if got := pt.Agrees(c.answer); got != c.pt {
			t.Errorf("Portuguese Agrees(%q) = %v", c.answer, got)
		}
		if got := en.Agrees(c.answer); got != c.en {
			t.Errorf("English Agrees(%q) = %v", c.answer, got)
		}
	}
}

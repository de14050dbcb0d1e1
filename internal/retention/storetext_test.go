package retention

import "testing"

// Every report line's catalog texts say in English what its Store and
// Rule say, so the report reads the same through i18n in English.
func TestReportLinesTextsAreTheirEnglish(t *testing.T) {
	for _, r := range []Rules{DefaultRules(), {}} {
		for _, l := range reportLines("/h", r) {
			if l.StoreText.String() != l.Store || l.RuleText.String() != l.Rule {
				t.Errorf("%q / %q: texts say %q / %q", l.Store, l.Rule, l.StoreText, l.RuleText)
			}
		}
	}
}

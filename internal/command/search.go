package command

import (
	"fmt"
	"strings"
)

func sessionSearch(env *Env, a []string, _ bool) error {
	if len(a) == 0 {
		return fmt.Errorf("%w: /session search QUERY", ErrUsage)
	}
	stop := env.progress(env.Lang.Sprintf("searching"))
	hits, warnings, err := env.Engine.SearchSessions(strings.Join(a, " "), searchHits)
	stop()
	warnSaid(env, warnings)
	if err != nil {
		return searchError(err)
	}
	WriteHits(env.Lang, env.Out, hits, true)
	return nil
}

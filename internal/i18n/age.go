package i18n

import (
	"math"
	"time"

	"github.com/dustin/go-humanize"
)

// Age is t relative to now, for people: in English humanize's words
// ("3 hours ago", "1 day ago", "2 weeks from now"), in Portuguese the
// same steps in Portuguese ("há 3 horas", "há 1 dia", "daqui a 2
// semanas").
func (p *Printer) Age(t, now time.Time) string {
	if p.Tag() != Portuguese {
		return humanize.RelTime(t, now, "ago", "from now")
	}
	return humanize.CustomRelTime(t, now, "há", "daqui a", ptAges)
}

// ptAges are humanize's default steps (its Day, Week, Month, Year) in
// Portuguese: the label ("há", "daqui a") comes first.
var ptAges = []humanize.RelTimeMagnitude{
	{D: time.Second, Format: "agora", DivBy: time.Second},
	{D: 2 * time.Second, Format: "%s 1 segundo", DivBy: 1},
	{D: time.Minute, Format: "%s %d segundos", DivBy: time.Second},
	{D: 2 * time.Minute, Format: "%s 1 minuto", DivBy: 1},
	{D: time.Hour, Format: "%s %d minutos", DivBy: time.Minute},
	{D: 2 * time.Hour, Format: "%s 1 hora", DivBy: 1},
	{D: humanize.Day, Format: "%s %d horas", DivBy: time.Hour},
	{D: 2 * humanize.Day, Format: "%s 1 dia", DivBy: 1},
	{D: humanize.Week, Format: "%s %d dias", DivBy: humanize.Day},
	{D: 2 * humanize.Week, Format: "%s 1 semana", DivBy: 1},
	{D: humanize.Month, Format: "%s %d semanas", DivBy: humanize.Week},
	{D: 2 * humanize.Month, Format: "%s 1 mês", DivBy: 1},
	{D: humanize.Year, Format: "%s %d meses", DivBy: humanize.Month},
	{D: 18 * humanize.Month, Format: "%s 1 ano", DivBy: 1},
	{D: 2 * humanize.Year, Format: "%s 2 anos", DivBy: 1},
	{D: humanize.LongTime, Format: "%s %d anos", DivBy: humanize.Year},
	{D: math.MaxInt64, Format: "%s muito tempo", DivBy: 1},
}

package main

import (
	"errors"
	"strconv"

	"github.com/spf13/pflag"

	"github.com/chatcli/chatcli/internal/i18n"
)

// flagError is err, an error of pflag's parsing, as an error of the i18n
// catalog with the same English text, so the error line can say it in
// Portuguese: unknown flags, missing values, bad values and bad syntax
// (pflag's error types), with a number that does not parse said as such.
// An error it does not know, or whose text pflag words differently, is
// returned as it is.
func flagError(err error) error {
	var (
		notExist *pflag.NotExistError
		required *pflag.ValueRequiredError
		invalid  *pflag.InvalidValueError
		syntax   *pflag.InvalidSyntaxError
		said     error
	)
	switch {
	case errors.As(err, &notExist):
		if s := notExist.GetSpecifiedShortnames(); s != "" {
			said = i18n.Errorf("unknown shorthand flag: %q in -%s", rune(notExist.GetSpecifiedName()[0]), s)
		} else {
			said = i18n.Errorf("unknown flag: --%s", notExist.GetSpecifiedName())
		}
	case errors.As(err, &required):
		if s := required.GetSpecifiedShortnames(); s != "" {
			said = i18n.Errorf("flag needs an argument: %q in -%s", rune(required.GetSpecifiedName()[0]), s)
		} else {
			said = i18n.Errorf("flag needs an argument: --%s", required.GetSpecifiedName())
		}
	case errors.As(err, &invalid):
		said = i18n.Errorf("invalid argument %q for %q flag: %v", invalid.GetValue(), flagNames(invalid.GetFlag()), valueError(invalid.Unwrap()))
	case errors.As(err, &syntax):
		said = i18n.Errorf("bad flag syntax: %s", syntax.GetSpecifiedFlag())
	}
	if said == nil || said.Error() != err.Error() {
		return err
	}
	return said
}

// flagNames is how pflag names f in an error: "-n, --limit" or "--limit".
func flagNames(f *pflag.Flag) string {
	if f.Shorthand != "" && f.ShorthandDeprecated == "" {
		return "-" + f.Shorthand + ", --" + f.Name
	}
	return "--" + f.Name
}

// valueError is the error of a flag value that did not parse: a number
// that is not one, or out of range, said by the catalog with the English
// text strconv gives it; any other error as it is.
func valueError(err error) error {
	var num *strconv.NumError
	if !errors.As(err, &num) {
		return err
	}
	switch {
	case errors.Is(num.Err, strconv.ErrSyntax):
		return i18n.Reword(err, "%q is not a number", num.Num)
	case errors.Is(num.Err, strconv.ErrRange):
		return i18n.Reword(err, "%q is out of range", num.Num)
	}
	return err
}

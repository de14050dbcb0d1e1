package provider

import (
	"fmt"
	"net/url"
)

// BaseURL checks the base URL an adapter was given: raw, or def when raw is
// "", must be an absolute http(s) URL. The error names the provider and the
// URL as configured.
func BaseURL(name, raw, def string) (string, error) {
	base := raw
	if base == "" {
		base = def
	}
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("%s: base URL %q is not an http(s) URL", name, raw)
	}
	return base, nil
}

// Retries maps a configured retry count to the SDKs' setting: 0 means def,
// a negative number means none.
func Retries(n, def int) int {
	switch {
	case n == 0:
		return def
	case n < 0:
		return 0
	}
	return n
}

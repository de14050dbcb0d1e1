package providertest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
)

// sigV4Header is the Authorization header of a Signature Version 4 request
// (AWS IAM User Guide, "Elements of an AWS API request signature"):
// the algorithm, Credential=<key id>/<yyyymmdd>/<region>/<service>/aws4_request,
// SignedHeaders (lower case, sorted, ";"-separated) and a 64-hex Signature.
var sigV4Header = regexp.MustCompile(`^AWS4-HMAC-SHA256 Credential=([^/,\s]+)/(\d{8})/([a-z0-9-]+)/([a-z0-9-]+)/aws4_request, SignedHeaders=([a-z0-9;-]+), Signature=([0-9a-f]{64})$`)

// checkSignature checks the request's SigV4 signature the way AWS does:
// the header's form, the credential scope (this key, the X-Amz-Date's day,
// the fake's Region, service "bedrock"), host and x-amz-date among the
// signed headers, the session token when one is expected, a request time
// within 15 minutes of now ("Signature expired"), and the signature itself,
// recomputed over the signed headers with the secret key. It returns the
// status, exception and message of the refusal, 0 when the signature holds.
// With a BearerToken, the token is checked instead.
func (b *Bedrock) checkSignature(r *http.Request, body []byte) (int, string, string) {
	const (
		missing = "MissingAuthenticationTokenException"
		invalid = "InvalidSignatureException"
	)
	if b.BearerToken != "" {
		if r.Header.Get("Authorization") != "Bearer "+b.BearerToken {
			return http.StatusForbidden, "AccessDeniedException", "Authentication failed: Please make sure your API Key is valid."
		}
		return 0, "", ""
	}
	m := sigV4Header.FindStringSubmatch(r.Header.Get("Authorization"))
	if m == nil {
		return http.StatusForbidden, missing, "Missing Authentication Token"
	}
	keyID, day, region, service, signed, sig := m[1], m[2], m[3], m[4], strings.Split(m[5], ";"), m[6]
	at, err := time.Parse("20060102T150405Z", r.Header.Get("X-Amz-Date"))
	switch {
	case err != nil:
		return http.StatusForbidden, invalid, "Authorization header requires existence of either a 'X-Amz-Date' or a 'Date' header."
	case keyID != b.AccessKeyID:
		return http.StatusForbidden, "UnrecognizedClientException", "The security token included in the request is invalid."
	case day != at.Format("20060102"), region != b.Region, service != "bedrock":
		return http.StatusForbidden, invalid, fmt.Sprintf("Credential should be scoped to a valid region and service: got %s/%s/%s", day, region, service)
	case time.Since(at).Abs() > 15*time.Minute:
		return http.StatusForbidden, invalid, "Signature expired"
	case !slices.Contains(signed, "host") || !slices.Contains(signed, "x-amz-date") || !slices.IsSorted(signed):
		return http.StatusForbidden, invalid, "SignedHeaders must include host and x-amz-date, sorted: " + m[5]
	case b.SessionToken != "" && (r.Header.Get("X-Amz-Security-Token") != b.SessionToken || !slices.Contains(signed, "x-amz-security-token")):
		return http.StatusForbidden, "UnrecognizedClientException", "The security token included in the request is invalid."
	}
	if want := b.signature(r, body, signed, at); want != sig {
		return http.StatusForbidden, invalid, "The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method."
	}
	return 0, "", ""
}

// signature recomputes the request's signature with the official signer,
// over exactly the headers the request says it signed.
func (b *Bedrock) signature(r *http.Request, body []byte, signed []string, at time.Time) string {
	u := *r.URL
	u.Scheme, u.Host = "http", r.Host
	req, _ := http.NewRequest(r.Method, u.String(), nil)
	req.URL.RawPath = r.URL.RawPath
	req.ContentLength = r.ContentLength
	for _, h := range signed {
		if h != "host" && h != "content-length" {
			req.Header[http.CanonicalHeaderKey(h)] = r.Header.Values(h)
		}
	}
	if !slices.Contains(signed, "content-length") {
		req.ContentLength = 0
	}
	sum := sha256.Sum256(body)
	creds := aws.Credentials{AccessKeyID: b.AccessKeyID, SecretAccessKey: b.SecretAccessKey, SessionToken: b.SessionToken}
	if err := v4.NewSigner().SignHTTP(context.Background(), creds, req, hex.EncodeToString(sum[:]), "bedrock", b.Region, at); err != nil {
		return ""
	}
	if m := sigV4Header.FindStringSubmatch(req.Header.Get("Authorization")); m != nil {
		return m[6]
	}
	return ""
}

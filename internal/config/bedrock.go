package config

import (
	"fmt"
	"strings"
)

// ProviderBedrock is Claude on Amazon Bedrock (LLM_PROVIDER=BEDROCK).
const ProviderBedrock = "bedrock"

// DefaultBedrockModel and DefaultBedrockRegion are ChatCLI 1.188.0's
// (config/defaults.go): a global inference profile, and us-east-1.
const (
	DefaultBedrockModel  = "global.anthropic.claude-sonnet-4-6"
	DefaultBedrockRegion = "us-east-1"
)

// Bedrock is the configuration of LLM_PROVIDER=BEDROCK, read from ChatCLI's
// variables and the AWS SDKs' standard ones (AWS SDKs and Tools Reference
// Guide, "Environment variables"). The AWS shared config and credentials
// files are not read: the credentials come from the environment.
type Bedrock struct {
	// Model is BEDROCK_MODEL, default DefaultBedrockModel: a Bedrock model
	// or inference profile id.
	Model string
	// Region is BEDROCK_REGION, else AWS_REGION, else AWS_DEFAULT_REGION,
	// else DefaultBedrockRegion (ChatCLI's order, with the AWS SDKs'
	// AWS_DEFAULT_REGION before the default); RegionVar names the
	// variable it came from ("" for the default).
	Region, RegionVar string
	// AccessKeyID, SecretAccessKey and SessionToken are AWS_ACCESS_KEY_ID,
	// AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN (AWS_SECURITY_TOKEN, its
	// older name, too).
	AccessKeyID, SecretAccessKey, SessionToken string
	// BearerToken is AWS_BEARER_TOKEN_BEDROCK, an Amazon Bedrock API key.
	BearerToken string
	// Profile is BEDROCK_PROFILE or AWS_PROFILE: a named profile of the AWS
	// files, which chatcli cannot read (see Missing).
	Profile string
	// Endpoint replaces the regional endpoint: BEDROCK_BASE_URL (ChatCLI's),
	// else AWS_ENDPOINT_URL_BEDROCK_RUNTIME, else AWS_ENDPOINT_URL (the AWS
	// service-specific endpoint variables), the last two ignored when
	// AWS_IGNORE_CONFIGURED_ENDPOINT_URLS is true. EndpointVar names the
	// variable used.
	Endpoint, EndpointVar string
}

// readBedrock reads c.Bedrock from the environment.
func (c *Config) readBedrock(getenv func(string) string) {
	b := Bedrock{
		Model:           firstNonEmpty(getenv("BEDROCK_MODEL"), DefaultBedrockModel),
		AccessKeyID:     getenv("AWS_ACCESS_KEY_ID"),
		SecretAccessKey: getenv("AWS_SECRET_ACCESS_KEY"),
		SessionToken:    firstNonEmpty(getenv("AWS_SESSION_TOKEN"), getenv("AWS_SECURITY_TOKEN")),
		BearerToken:     getenv("AWS_BEARER_TOKEN_BEDROCK"),
		Profile:         firstNonEmpty(getenv("BEDROCK_PROFILE"), getenv("AWS_PROFILE")),
		Region:          DefaultBedrockRegion,
	}
	for _, v := range []string{"BEDROCK_REGION", "AWS_REGION", "AWS_DEFAULT_REGION"} {
		if r := strings.TrimSpace(getenv(v)); r != "" {
			b.Region, b.RegionVar = r, v
			break
		}
	}
	endpointVars := []string{"BEDROCK_BASE_URL"}
	if ignore, err := ParseBool(getenv("AWS_IGNORE_CONFIGURED_ENDPOINT_URLS")); err != nil || !ignore {
		endpointVars = append(endpointVars, "AWS_ENDPOINT_URL_BEDROCK_RUNTIME", "AWS_ENDPOINT_URL")
	}
	for _, v := range endpointVars {
		if e := strings.TrimSpace(getenv(v)); e != "" {
			b.Endpoint, b.EndpointVar = e, v
			break
		}
	}
	c.Bedrock = b
}

// Missing is why these settings cannot sign a request, naming the
// variables to set; "" when they can. A profile alone is not enough:
// chatcli does not read the AWS files, so the error says how to export the
// profile's credentials instead.
func (b Bedrock) Missing() string {
	switch {
	case b.BearerToken != "", b.AccessKeyID != "" && b.SecretAccessKey != "":
		return ""
	case b.AccessKeyID != "":
		return "AWS_SECRET_ACCESS_KEY is not set (LLM_PROVIDER=BEDROCK; AWS_ACCESS_KEY_ID is)"
	case b.SecretAccessKey != "":
		return "AWS_ACCESS_KEY_ID is not set (LLM_PROVIDER=BEDROCK; AWS_SECRET_ACCESS_KEY is)"
	case b.Profile != "":
		return fmt.Sprintf("the AWS profile %q cannot be used: chatcli reads AWS credentials from the environment only; "+
			"export them with `eval \"$(aws configure export-credentials --profile %s --format env)\"`, or set AWS_BEARER_TOKEN_BEDROCK", b.Profile, b.Profile)
	}
	return "AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or AWS_BEARER_TOKEN_BEDROCK) are not set (LLM_PROVIDER=BEDROCK)"
}

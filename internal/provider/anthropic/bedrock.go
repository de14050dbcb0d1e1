package anthropic

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/bedrock"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/chatcli/chatcli/internal/provider"
)

// BedrockName is the provider name a client made by NewBedrock reports.
const BedrockName = "bedrock"

// BedrockVersion is the anthropic_version every Bedrock request body
// carries: Amazon Bedrock's Anthropic Claude Messages API documents it as
// required, with this one value ("anthropic_version – (Required) … The value
// must be bedrock-2023-05-31", Bedrock User Guide,
// model-parameters-anthropic-claude-messages-request-response).
const BedrockVersion = "bedrock-2023-05-31"

// BedrockConfig configures a client for Claude on Amazon Bedrock. Model and
// Region are required, and either a bearer token or an access key pair.
type BedrockConfig struct {
	// Model is the Bedrock model or inference profile id, e.g.
	// "anthropic.claude-sonnet-4-5-20250929-v1:0" or
	// "us.anthropic.claude-sonnet-4-5-20250929-v1:0"; it goes in the request
	// path (/model/{modelId}/invoke-with-response-stream).
	Model string
	// Region is the AWS Region, e.g. "us-east-1": requests go to
	// https://bedrock-runtime.<Region>.amazonaws.com and are signed for it.
	Region string
	// AccessKeyID, SecretAccessKey and SessionToken are the AWS credentials
	// requests are signed with (Signature Version 4, service "bedrock");
	// SessionToken is for temporary credentials and may be empty.
	AccessKeyID, SecretAccessKey, SessionToken string
	// BearerToken is an Amazon Bedrock API key
	// (AWS_BEARER_TOKEN_BEDROCK), sent as "Authorization: Bearer" instead of
	// a signature; it wins over the access keys.
	BearerToken string
	// Endpoint replaces the regional endpoint (a VPC endpoint, or a test
	// server); requests are still signed for Region.
	Endpoint string
	// HTTPClient, Timeout, MaxTokens and MaxRetries are as in Config.
	HTTPClient *http.Client
	Timeout    time.Duration
	MaxTokens  int
	MaxRetries int
}

// NewBedrock returns a client for Claude on Amazon Bedrock through the
// Anthropic SDK's bedrock package (bedrock.WithConfig), which turns each
// Messages request into InvokeModelWithResponseStream: the model moves from
// the body to the path, the body gets anthropic_version (BedrockVersion),
// the request is signed with SigV4 (or carries the bearer token), and the
// reply's AWS event stream (application/vnd.amazon.eventstream, each
// "chunk" event's base64 "bytes" a Messages stream event) is read back as
// the Messages API's server-sent events. Everything else (the request's
// normalisation and conversion, the stream's reading, the error
// classification) is the anthropic client's. The AWS SDK's shared
// configuration chain is not used: the credentials are the ones given.
//
// It fails when Model or Region is empty, when no credentials are given,
// or when Endpoint is not an absolute http(s) URL; it does not contact the
// server.
func NewBedrock(cfg BedrockConfig) (*Client, error) {
	switch {
	case cfg.Model == "":
		return nil, errors.New("bedrock: no model configured")
	case cfg.Region == "":
		return nil, errors.New("bedrock: no AWS Region configured")
	case cfg.BearerToken == "" && (cfg.AccessKeyID == "" || cfg.SecretAccessKey == ""):
		return nil, errors.New("bedrock: no AWS credentials configured")
	}
	awsCfg := aws.Config{Region: cfg.Region}
	if cfg.BearerToken != "" {
		awsCfg.AuthSchemePreference = []string{"httpBearerAuth"}
		awsCfg.BearerAuthTokenProvider = bedrock.NewStaticBearerTokenProvider(cfg.BearerToken)
	} else {
		creds := aws.Credentials{AccessKeyID: cfg.AccessKeyID, SecretAccessKey: cfg.SecretAccessKey, SessionToken: cfg.SessionToken, Source: "chatcli"}
		awsCfg.Credentials = aws.CredentialsProviderFunc(func(context.Context) (aws.Credentials, error) { return creds, nil })
	}
	hc := cfg.HTTPClient
	if hc == nil {
		hc = &http.Client{}
	}
	retries := provider.Retries(cfg.MaxRetries, DefaultMaxRetries)
	opts := []option.RequestOption{
		option.WithoutEnvironmentDefaults(),
		option.WithHTTPClient(hc),
		option.WithMaxRetries(retries),
		option.WithMiddleware(provider.RetryMiddleware(BedrockName, retries, 0)),
		option.WithJSONSet("anthropic_version", BedrockVersion),
		bedrock.WithConfig(awsCfg),
	}
	if cfg.Endpoint != "" {
		base, err := provider.BaseURL(BedrockName, strings.TrimRight(cfg.Endpoint, "/"), "")
		if err != nil {
			return nil, err
		}
		opts = append(opts, option.WithBaseURL(base+"/"))
	}
	maxTokens := cfg.MaxTokens
	if maxTokens <= 0 {
		maxTokens = DefaultMaxTokens
	}
	return &Client{sdk: anthropic.NewClient(opts...), name: BedrockName, model: cfg.Model, timeout: cfg.Timeout, maxTokens: maxTokens}, nil
}

// Package slack is the gateway's Slack channel: the Events API (an HTTP
// endpoint Slack POSTs events to; api.slack.com/apis/events-api) and
// chat.postMessage for replies, through github.com/slack-go/slack.
//
// Every request's signature (X-Slack-Signature over "v0:<timestamp>:<body>"
// with the signing secret, X-Slack-Request-Timestamp within five minutes;
// slack.NewSecretsVerifier) is checked before anything else: a request
// that fails gets 401 and is not read further. A url_verification request
// is answered with its challenge. An event_callback is acknowledged at once
// (Slack wants an answer within 3 seconds) and served in the background:
// direct messages (message events of channel_type "im" without subtype or
// bot_id) and mentions (app_mention, the leading <@bot> dropped), principal
// slack:<user>, replies to the event's channel. Slack redelivers an event it
// thinks was missed (X-Slack-Retry-Num); each event_id is served once, as
// the gateway's state file remembers the newest ones.
//
// Replies are converted to mrkdwn (markup.Slack) and split at MessageLimit
// characters, each part one chat.postMessage with a mrkdwn section block
// and the same text as its notification fallback; a rate-limited post
// (429) is retried after the wait Slack names. Slack has no typing
// indicator for Events API apps. The bot token and signing secret are never
// logged (gateway.Redact).
package slack

// Package whatsapp is the gateway's WhatsApp channel: the WhatsApp Cloud
// API, which has no official Go SDK, through net/http.
//
// Incoming: a webhook (developers.facebook.com/docs/graph-api/webhooks).
// GET with hub.mode=subscribe and hub.verify_token equal to the configured
// verify token is answered with hub.challenge (the subscription check);
// any other GET gets 403. A POST carries a whatsapp_business_account
// notification: entry[].changes[].value.messages[] of type "text" become
// gateway messages (principal whatsapp:<from>, replies to <from>); statuses
// and other message types are ignored. With an app secret configured, a
// POST whose X-Hub-Signature-256 is not "sha256=" + hex HMAC-SHA256 of the
// body under that secret gets 401 and is not read further. A notification
// is acknowledged at once and its messages served in the background, each
// message id once (Meta redelivers a notification it thinks was missed).
//
// Outgoing: the Graph API, POST <graph URL>/<phone-number-id>/messages
// with "Authorization: Bearer <access token>" and a JSON body
// {"messaging_product":"whatsapp","to":…,"type":"text","text":{"body":…}};
// replies are converted to WhatsApp's formatting (markup.WhatsApp) and
// split at MessageLimit characters. While a turn runs, the message being
// answered is marked read with a typing indicator ({"status":"read",
// "message_id":…,"typing_indicator":{"type":"text"}}). A Graph API error
// is returned with its HTTP status, message and code, never the token.
package whatsapp

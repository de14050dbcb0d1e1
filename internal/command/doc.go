// Package command implements the slash commands (/session …, /help, /exit)
// once, for every surface: the REPL dispatches typed lines here, and the
// headless `chatcli session …` verbs reuse the same formatting. Commands
// write what they report to Env.Out and warnings to Env.Err; they never
// touch a terminal directly.
package command

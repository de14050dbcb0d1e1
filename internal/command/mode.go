package command

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/chatcli/chatcli/internal/conversation"
	"github.com/chatcli/chatcli/internal/i18n"
	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/render"
)

// announceMode says that mode started.
func announceMode(env *Env, mode string) {
	switch mode {
	case conversation.ModeChat:
		env.say("Chat mode: no tools; the model answers in text.\n")
	case conversation.ModeAgent:
		env.say("Agent mode: the model may read and search files here and run commands; each command asks first. /chat returns to chat.\n")
	case conversation.ModeCoder:
		env.say("Coder mode: the model may read, create and edit files here and run commands; each write and command asks first. /chat returns to chat.\n")
	}
}

// modeCommand is /chat, /agent or /coder: switch the conversation to mode
// and announce it; with a task, run it as a turn in that mode and go back
// to the mode before, as ChatCLI does (so /agent alone switches, /agent
// TASK is one task).
func modeCommand(mode string) func(context.Context, *Env, []string) error {
	return func(ctx context.Context, env *Env, args []string) error {
		e := env.Engine
		was := e.Mode()
		if err := e.SetMode(mode); err != nil {
			if errors.Is(err, conversation.ErrNoToolbox) {
				return fmt.Errorf("/%s: %w", mode, err)
			}
			return err
		}
		if was != mode {
			announceMode(env, mode)
			if mode != conversation.ModeChat && env.Config != nil && env.Config.Agent.AutoExec {
				env.say("Auto-exec is on: writes and commands run without asking.\n")
			}
		} else if len(args) == 0 {
			env.say("Already in %s mode.\n", mode)
		}
		task := strings.TrimSpace(strings.Join(args, " "))
		if task == "" {
			return nil
		}
		err := RunTurn(ctx, env, task)
		if was != mode {
			if serr := e.SetMode(was); serr != nil {
				return errors.Join(err, serr)
			}
			env.say("Task done; back in %s mode.\n", was)
		}
		return err
	}
}

// RunTurn sends prompt as a turn of the live conversation, streaming the
// reply to env.Out and ending it with a newline. When the turn fails or is
// cancelled, the error says that the prompt is kept unanswered and how to
// resend it.
func RunTurn(ctx context.Context, env *Env, prompt string) error {
	waiting := env.Lang.Sprintf("waiting for the model")
	defer env.progress(waiting)()
	if env.Progress != nil { // after each tool call's line, the next request
		prev := env.Engine.SetOnTool(nil)
		env.Engine.SetOnTool(func(a conversation.ToolActivity) {
			if prev != nil {
				prev(a)
			}
			env.progress(waiting)
		})
		defer env.Engine.SetOnTool(prev)
		defer env.Engine.SetOnToolStart(env.Engine.SetOnToolStart(func(c message.ToolCall) { env.progress(Running(env.Lang, c)) }))
		// A retry's notice stopped the spinner; the retry is awaited too.
		defer env.Engine.SetOnRetried(env.Engine.SetOnRetried(func() { env.progress(waiting) }))
	}
	out := PlainReply(env.Out)
	if env.Reply != nil {
		out = env.Reply(env.Out)
	}
	_, err := env.Engine.Turn(ctx, prompt, func(s string) { io.WriteString(out, s) })
	out.Close()
	return turnFailed(ctx, env, err)
}

// Running is the spinner's label while tool call c runs, in lang (nil:
// English): "running run_command".
func Running(lang *i18n.Printer, c message.ToolCall) string {
	return lang.Sprintf("running %s", render.VisibleLine(c.Name))
}

// PlainReply returns a writer that writes a reply to w as it arrives, its
// control characters made visible (render.VisibleWriter), and, on Close,
// ends it with a line feed when it wrote anything.
func PlainReply(w io.Writer) io.WriteCloser { return &plainReply{w: render.NewVisibleWriter(w)} }

// plainReply is PlainReply's writer.
type plainReply struct {
	w     *render.VisibleWriter
	wrote bool
}

func (p *plainReply) Write(b []byte) (int, error) {
	p.wrote = p.wrote || len(b) > 0
	return p.w.Write(b)
}

func (p *plainReply) Close() error {
	if !p.wrote {
		return nil
	}
	p.w.Flush()
	_, err := fmt.Fprintln(p.w)
	return err
}

// ToolLine is the one-line report of a tool call that ran, as the surfaces
// print it on standard error:
//
//	[tool] list_files {"path":"."}: ok, 2 lines
//	[tool] run_command {"command":"go test"}: error: exit status 1
//
// Arguments are clipped to 80 characters, the error to its first line and
// to 120 characters by cutting its middle, so the end of a refusal, where the
// next step is named ("rerun with --agent-auto-exec to allow"), stays.
func ToolLine(a conversation.ToolActivity) string {
	args := strings.Join(strings.Fields(a.Call.Arguments), " ")
	if r := []rune(args); len(r) > 80 {
		args = string(r[:79]) + "…"
	}
	head := "[tool] " + render.VisibleLine(a.Call.Name+" "+args) + ": "
	if a.IsError {
		first, _, _ := strings.Cut(strings.TrimSpace(a.Content), "\n")
		if r := []rune(first); len(r) > 120 {
			first = string(r[:59]) + "…" + string(r[len(r)-60:])
		}
		if !strings.HasPrefix(first, "error") && !strings.HasPrefix(first, "refused") {
			first = "error: " + first
		}
		return head + render.VisibleLine(first)
	}
	n := strings.Count(strings.TrimRight(a.Content, "\n"), "\n") + 1
	if strings.TrimSpace(a.Content) == "" {
		return head + "ok"
	}
	return head + fmt.Sprintf("ok, %d line%s", n, map[bool]string{true: "", false: "s"}[n == 1])
}

package acpserver

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/chatcli/chatcli/internal/i18n"
)

// rawWire serves ACP in lang on pipes and returns a function that sends
// one request line and returns its answer and the agent text of the
// session/update notifications that came before it.
func rawWire(t *testing.T, lang *i18n.Printer) func(id, method, params string) (answer, text string) {
	srv, _, _ := newServer(t, nil, true)
	srv.o.Lang = lang
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	go func() {
		srv.Serve(context.Background(), inR, outW)
		outW.Close()
	}()
	t.Cleanup(func() { inW.Close() })
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	return func(id, method, params string) (string, string) {
		t.Helper()
		if _, err := io.WriteString(inW, request(id, method, params)+"\n"); err != nil {
			t.Fatal(err)
		}
		var text strings.Builder
		for {
			select {
			case l, ok := <-lines:
				if !ok {
					t.Fatalf("%s %s: the server's stdout ended", method, id)
				}
				var m struct {
					ID     json.RawMessage
					Method string
					Params struct {
						Update struct {
							SessionUpdate string
							Content       struct{ Text string }
						}
					}
				}
				if err := json.Unmarshal([]byte(l), &m); err != nil {
					t.Fatalf("%q: %v", l, err)
				}
				if string(m.ID) == id && m.Method == "" {
					return l, text.String()
				}
				if m.Params.Update.SessionUpdate == "agent_message_chunk" {
					text.WriteString(m.Params.Update.Content.Text)
				}
			case <-time.After(10 * time.Second):
				t.Fatalf("%s %s: no answer", method, id)
			}
		}
	}
}

// TestAnUnknownCommandIsAReplyNotAnError: "/nosuch" typed in the editor
// ends its turn with the REPL's line saying the command is unknown, in
// the server's language; a prompt of the wrong shape is still refused as
// invalid params.
func TestAnUnknownCommandIsAReplyNotAnError(t *testing.T) {
	for _, tc := range []struct {
		lang       *i18n.Printer
		said, save string
	}{
		{i18n.New(i18n.English), "error: unknown command /nosuch; /help lists the commands\n",
			"Saved 0 messages as session \"x\"; later turns are saved there too.\n"},
		{i18n.New(i18n.Portuguese), "erro: comando desconhecido /nosuch; /help lista os comandos\n",
			"Sessão 'x' salva com sucesso.\n"},
	} {
		send := rawWire(t, tc.lang)
		send(`"init"`, "initialize", `{"protocolVersion":1}`)
		send("1", "session/new", `{"cwd":"/tmp","mcpServers":[]}`)
		answer, text := send("2", "session/prompt", `{"sessionId":"s1","prompt":[{"type":"text","text":"/nosuch"}]}`)
		if !strings.Contains(answer, `"stopReason":"end_turn"`) || strings.Contains(answer, `"error"`) || text != tc.said {
			t.Fatalf("%s: /nosuch answered %s after %q, want end_turn after %q", tc.lang.Tag(), answer, text, tc.said)
		}
		if answer, text = send("3", "session/prompt", `{"sessionId":"s1","prompt":[{"type":"text","text":"/session save x"}]}`); text != tc.save {
			t.Fatalf("%s: /session save x answered %s after %q, want %q", tc.lang.Tag(), answer, text, tc.save)
		}
		for id, params := range map[string]string{
			"4": `{"sessionId":"s1","prompt":"/nosuch"}`,
			"5": `{"sessionId":"s1","prompt":[{"type":"image","data":"aGk=","mimeType":"image/png"}]}`,
		} {
			if answer, _ := send(id, "session/prompt", params); !strings.Contains(answer, `"code":-32602`) {
				t.Fatalf("%s: session/prompt %s answered %s, want -32602", tc.lang.Tag(), params, answer)
			}
		}
	}
}

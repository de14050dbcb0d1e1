package main

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
)

// schemaAt resolves the JSON Schema in the file at path.
func schemaAt(t *testing.T, path string) *jsonschema.Resolved {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	r, err := s.Resolve(nil)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return r
}

// validJSON decodes line and validates it against s.
func validJSON(t *testing.T, s *jsonschema.Resolved, line string) map[string]any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal([]byte(line), &v); err != nil {
		t.Fatalf("not JSON: %q: %v", line, err)
	}
	if err := s.Validate(v); err != nil {
		t.Fatalf("against the schema: %v\n%s", err, line)
	}
	return v
}

// agentScript is a task whose model runs one command, then answers.
func agentScript(t *testing.T) (url, answer string) {
	answer = "The command printed hi."
	srv := scriptServer(t, []scriptReply{
		{Calls: []scriptCall{{"call_echo", "run_command", map[string]string{"command": "echo hi"}}}},
		{Text: answer},
	}, nil)
	return srv.URL + "/v1", answer
}

func TestOneShotJSONFollowsItsSchema(t *testing.T) {
	schema := schemaAt(t, "../../docs/schema/oneshot.schema.json")
	if err := schema.Validate(map[string]any{"session": ""}); err == nil {
		t.Fatal("the schema accepts an object without reply")
	}
	url, answer := agentScript(t)
	env := []string{"CHATCLI_HOME=" + t.TempDir(), "OPENAI_BASE_URL=" + url, "OPENAI_MODEL=m"}
	out, errOut, code := runDir(t, t.TempDir(), env, "-p", "say hi", "--agent", "--agent-auto-exec", "--json")
	if code != 0 {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", code, out, errOut)
	}
	if strings.Count(out, "\n") != 1 {
		t.Fatalf("--json prints one line, got:\n%s", out)
	}
	v := validJSON(t, schema, out)
	calls, _ := v["tool_calls"].([]any)
	if v["reply"] != answer || v["mode"] != "agent" || v["model"] != "m" || len(calls) != 1 {
		t.Fatalf("object %s", out)
	}
	if c := calls[0].(map[string]any); c["name"] != "run_command" || c["id"] != "call_echo" || !strings.Contains(c["result"].(string), "hi") {
		t.Errorf("tool call %v", c)
	}
	if strings.Contains(errOut, "[tool]") {
		t.Errorf("tool lines go into the object, not standard error:\n%s", errOut)
	}
}

func TestOneShotStreamJSONFollowsItsSchema(t *testing.T) {
	schema := schemaAt(t, "../../docs/schema/oneshot-stream.schema.json")
	url, answer := agentScript(t)
	env := []string{"CHATCLI_HOME=" + t.TempDir(), "OPENAI_BASE_URL=" + url, "OPENAI_MODEL=m"}
	out, errOut, code := runDir(t, t.TempDir(), env, "-p", "say hi", "--agent", "--agent-auto-exec", "--stream-json", "--session", "streamed")
	if code != 0 {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", code, out, errOut)
	}
	var types []string
	var last map[string]any
	text := ""
	for line := range strings.Lines(out) {
		last = validJSON(t, schema, line)
		types = append(types, last["type"].(string))
		if last["type"] == "delta" {
			text += last["text"].(string)
		}
	}
	got := strings.Join(types, ",")
	if !strings.HasPrefix(got, "tool_call,tool_result,delta") || !strings.HasSuffix(got, ",done") {
		t.Fatalf("events %s", got)
	}
	if last["reply"] != answer || text != answer || last["session"] != "streamed" {
		t.Errorf("done %v, streamed text %q", last, text)
	}
}

func TestOneShotJSONCarriesTheError(t *testing.T) {
	schema := schemaAt(t, "../../docs/schema/oneshot.schema.json")
	env := []string{"CHATCLI_HOME=" + t.TempDir(), "OPENAI_BASE_URL=http://127.0.0.1:1/v1", "OPENAI_API_KEY=k"}
	out, _, code := runDir(t, t.TempDir(), env, "-p", "hello", "--json")
	v := validJSON(t, schema, out)
	e, _ := v["error"].(map[string]any)
	if code != exitProvider || e == nil || e["exit_code"] != float64(code) || !strings.Contains(e["message"].(string), "cannot connect") {
		t.Fatalf("exit %d, object %s", code, out)
	}
}

// The notes of reference expansion and of what each request carries
// (memory, contexts) are notices of the object, as the engine's own are.
func TestOneShotJSONCarriesReferenceNotices(t *testing.T) {
	schema := schemaAt(t, "../../docs/schema/oneshot.schema.json")
	work := t.TempDir()
	os.WriteFile(work+"/a.txt", []byte("hello\n"), 0o600)
	env := []string{"CHATCLI_HOME=" + t.TempDir()}
	out, errOut, code := runAt(t, work, env, "", "-p", "read @file a.txt", "--json")
	if code != 0 {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", code, out, errOut)
	}
	v := validJSON(t, schema, out)
	notices, _ := v["notices"].([]any)
	if len(notices) != 1 || !strings.Contains(notices[0].(string), "attached a.txt") {
		t.Fatalf("notices %v\nstderr %s", notices, errOut)
	}
}

package linetest

import "strings"

// Error codes of JSON-RPC 2.0 §5.1.
const (
	parseError     = -32700
	invalidRequest = -32600
)

func refused(code int, ids ...string) Want {
	if len(ids) == 0 {
		ids = []string{"null"}
	}
	return Want{IDs: ids, Code: code}
}

func batch(ids ...string) Want { return Want{IDs: ids, Code: invalidRequest, Batch: true} }

// Malformed returns the lines every newline-delimited JSON-RPC 2.0 server
// must refuse, each with the answer the specification gives it: -32700
// for what is not JSON, -32600 for JSON that is no Request, under its id
// when the id is valid, else null (§5), and for a batch (§6), which
// neither MCP nor ACP serves, one error per call of it.
func Malformed() []Case {
	return []Case{
		{"text", `not json`, refused(parseError)},
		{"open brace", `{`, refused(parseError)},
		{"cut object", `{"jsonrpc":"2.0","id":1,"method":"x"`, refused(parseError)},
		{"extra brace", `{"jsonrpc":"2.0","id":1,"method":"x"}}`, refused(parseError)},
		{"two objects", `{"jsonrpc":"2.0","id":1,"method":"x"} {"a":1}`, refused(parseError)},
		{"single quotes", `{'jsonrpc':'2.0'}`, refused(parseError)},
		{"bare keys", `{jsonrpc:"2.0",id:1}`, refused(parseError)},
		{"NaN", `{"jsonrpc":"2.0","id":NaN,"method":"x"}`, refused(parseError)},
		{"trailing comma", `{"jsonrpc":"2.0","id":1,"method":"x",}`, refused(parseError)},
		{"invalid UTF-8", "\xff\xfe{}", refused(parseError)},
		{"raw control character", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"x\x01\"}", refused(parseError)},
		{"leading zero id", `{"jsonrpc":"2.0","id":01,"method":"x"}`, refused(parseError)},
		{"plus id", `{"jsonrpc":"2.0","id":+1,"method":"x"}`, refused(parseError)},
		{"dot id", `{"jsonrpc":"2.0","id":.5,"method":"x"}`, refused(parseError)},
		{"byte order mark", "\ufeff{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"x\"}", refused(parseError)},
		{"capital True", `True`, refused(parseError)},
		{"missing colon", `{"a" "b"}`, refused(parseError)},
		{"open bracket", `[`, refused(parseError)},
		{"deep nesting", strings.Repeat("[", 20000) + strings.Repeat("]", 20000), refused(parseError)},
		{"escape only", `\u001b[2J`, refused(parseError)},

		{"null", `null`, refused(invalidRequest)},
		{"number", `1`, refused(invalidRequest)},
		{"string", `"ping"`, refused(invalidRequest)},
		{"boolean", `true`, refused(invalidRequest)},
		{"empty object", `{}`, refused(invalidRequest)},
		{"version only", `{"jsonrpc":"2.0"}`, refused(invalidRequest)},
		{"null id", `{"jsonrpc":"2.0","id":null,"method":"x"}`, refused(invalidRequest)},
		{"boolean id", `{"jsonrpc":"2.0","id":true,"method":"x"}`, refused(invalidRequest)},
		{"object id", `{"jsonrpc":"2.0","id":{},"method":"x"}`, refused(invalidRequest)},
		{"array id", `{"jsonrpc":"2.0","id":[1],"method":"x"}`, refused(invalidRequest)},
		{"no version", `{"id":101,"method":"x"}`, refused(invalidRequest, "101")},
		{"version 1.0", `{"jsonrpc":"1.0","id":102,"method":"x"}`, refused(invalidRequest, "102")},
		{"version as number", `{"jsonrpc":2.0,"id":103,"method":"x"}`, refused(invalidRequest, "103")},
		{"method a number", `{"jsonrpc":"2.0","id":104,"method":1}`, refused(invalidRequest, "104")},
		{"method empty", `{"jsonrpc":"2.0","id":105,"method":""}`, refused(invalidRequest, "105")},
		{"method null", `{"jsonrpc":"2.0","id":106,"method":null}`, refused(invalidRequest, "106")},
		{"method an array", `{"jsonrpc":"2.0","id":"s107","method":["x"]}`, refused(invalidRequest, `"s107"`)},
		{"params a number", `{"jsonrpc":"2.0","id":108,"method":"x","params":1}`, refused(invalidRequest, "108")},
		{"params a string", `{"jsonrpc":"2.0","id":109,"method":"x","params":"p"}`, refused(invalidRequest, "109")},
		{"params null", `{"jsonrpc":"2.0","id":110,"method":"x","params":null}`, refused(invalidRequest, "110")},
		{"result and error", `{"jsonrpc":"2.0","id":111,"result":{},"error":{"code":1,"message":"m"}}`, refused(invalidRequest, "111")},
		{"id alone", `{"jsonrpc":"2.0","id":112}`, refused(invalidRequest, "112")},
		{"notification with bad params", `{"jsonrpc":"2.0","method":"x","params":true}`, refused(invalidRequest)},
		{"result without id", `{"jsonrpc":"2.0","result":{}}`, refused(invalidRequest)},
		{"duplicate version member", `{"jsonrpc":"2.0","id":113,"method":"x","jsonrpc":"1.0"}`, refused(invalidRequest, "113")},
		{"escape sequence method", "{\"jsonrpc\":\"2.0\",\"id\":114,\"method\":null,\"x\":\"\\u001b]0;owned\\u0007\"}", refused(invalidRequest, "114")},

		{"empty batch", `[]`, refused(invalidRequest)},
		{"batch of numbers", `[1,2,3]`, batch("null", "null", "null")},
		{"batch of one call", `[{"jsonrpc":"2.0","id":120,"method":"x"}]`, batch("120")},
		{"batch of a call and a notification", `[{"jsonrpc":"2.0","id":121,"method":"x"},{"jsonrpc":"2.0","method":"y"}]`, batch("121")},
		{"batch of a notification", `[{"jsonrpc":"2.0","method":"y"}]`, refused(invalidRequest)},
		{"batch of two calls", `[{"jsonrpc":"2.0","id":122,"method":"x"},{"jsonrpc":"2.0","id":"123","method":"y"}]`, batch("122", `"123"`)},
		{"nested batch", `[[]]`, batch("null")},
		{"batch with a bad element", `[{"jsonrpc":"2.0","id":124,"method":"x"},{"id":true}]`, batch("124", "null")},
	}
}

// Result wants one result under id.
func Result(id string) Want { return Want{IDs: []string{id}} }

// Failure wants one error with code (AnyError: any) under id.
func Failure(id string, code int) Want { return Want{IDs: []string{id}, Code: code} }

// NewCase returns the case of line, named name, wanting w.
func NewCase(name, line string, w Want) Case { return Case{Name: name, Line: line, Want: w} }

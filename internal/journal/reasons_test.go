package journal

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chatcli/chatcli/internal/i18n"
	"github.com/chatcli/chatcli/internal/seal"
)

// TestReasonsAreSaidInBothLanguages: every reason the reader gives for a
// damaged line, and the error of each line that is not a record, is the
// English text it always was and a Portuguese one without English left
// in it (the kinds of error said as an error line says them).
func TestReasonsAreSaidInBothLanguages(t *testing.T) {
	good, err := EncodeRecord(&Record{Type: TypeRewrite})
	if err != nil {
		t.Fatal(err)
	}
	good = good[:len(good)-1]
	body := `{"type":"rewrite","at":"0001-01-01T00:00:00Z"}`
	badCRC := body[:len(body)-1] + `,"crc":"00000000"}`
	computed := fmt.Sprintf("%08x", recordCRC([]byte(body)))
	k := testKey(t, 1)
	sealed, _ := seal.SealLine(k, LineName("x"), good)
	other := testKey(t, 2)
	_, openErr := seal.OpenLine(other, LineName("x"), sealed)
	notOpen := func(line string) i18n.Text {
		_, err := seal.OpenLine(k, LineName("x"), []byte(line))
		return sealedNotOpen(err)
	}
	at := `"at":"2026-11-30T08:00:00Z"`
	cases := []struct {
		reason i18n.Text
		en, pt string
	}{
		{reasonEmptyLine, "empty line", "linha vazia"},
		{reasonNoKey, "sealed line, and no key to open it", "linha selada, e nenhuma chave para abri-la"},
		{sealedNotOpen(openErr), "sealed line does not open: seal: wrong key or tampered data", "a linha selada não abre: chave errada ou dados adulterados"},
		{notOpen("chatcli-sealed:v2:AAAA"), "sealed line does not open: seal: envelope version too new: sealed line version v2, this build reads v1",
			"a linha selada não abre: versão do envelope criptografado mais nova que este chatcli: linha selada na versão v2, este chatcli lê a v1"},
		{notOpen("chatcli-sealed:v1:AA!A"), "sealed line does not open: seal: corrupt envelope: sealed line is not base64: illegal base64 data at input byte 2",
			"a linha selada não abre: envelope criptografado corrompido: a linha selada não é base64: dados base64 inválidos no byte 2"},
		{notOpen("chatcli-sealed:v1:AAAA"), "sealed line does not open: seal: corrupt envelope: sealed line holds no envelope",
			"a linha selada não abre: envelope criptografado corrompido: a linha selada não guarda um envelope"},
		{notOpen("chatcli-sealed:x"), "sealed line does not open: seal: corrupt envelope: malformed sealed-line prefix",
			"a linha selada não abre: envelope criptografado corrompido: prefixo de linha selada malformado"},
		{why(`{"type":"x",`+at+`}`, true), `journal: corrupt record: unknown record type "x"`,
			`registro do journal corrompido: tipo de registro desconhecido "x"`},
		{why(`{"type":"message",`+at+`}`, true), "journal: corrupt record: message record without message or hash",
			"registro do journal corrompido: registro de mensagem sem a mensagem ou o hash"},
		{why(`{"type":"rewrite","hashes":["ab"]}`, true), "journal: corrupt record: rewrite record with a bad hash",
			"registro do journal corrompido: registro de rewrite com um hash inválido"},
		{why(`{"type":"checkpoints"}`, true), "journal: corrupt record: checkpoints record without a list",
			"registro do journal corrompido: registro de checkpoints sem a lista"},
		{why(`{"type":"rewrite","checkpoint":[]}`, true), "journal: corrupt record: a checkpoint added that is not an object on a message or rewrite record",
			"registro do journal corrompido: um checkpoint adicionado que não é um objeto, ou não está num registro de mensagem ou de rewrite"},
		{why(`{"type":"rewrite","kept":2}`, true), `journal: corrupt record: "kept" is 2, not the count of checkpoints kept before a checkpoint added`,
			`registro do journal corrompido: "kept" é 2, não o número de checkpoints mantidos antes de um checkpoint adicionado`},
		{why(`{"type":"rewrite","crc":5}`, true), `journal: corrupt record: the checksum member is not the record's last member in the form "crc":"<8 hex>"`,
			`registro do journal corrompido: o membro do checksum não é o último membro do registro na forma "crc":"<8 hex>"`},
		{why(`{"type":"rewrite","crc":"ABCDEF01"}`, true), `journal: corrupt record: the checksum "ABCDEF01" is not 8 lowercase hex digits`,
			`registro do journal corrompido: o checksum "ABCDEF01" não tem 8 dígitos hexadecimais minúsculos`},
		{why(badCRC, true), "checksum mismatch (stored 00000000, computed " + computed + ")",
			"checksum não confere (gravado 00000000, calculado " + computed + ")"},
		{why("\x00\x00\x00", true), "3 NUL bytes", "3 bytes NUL"},
		{why("\x00\x00"+badCRC, true), "2 NUL bytes before a record, then checksum mismatch (stored 00000000, computed " + computed + ")",
			"2 bytes NUL antes de um registro, depois checksum não confere (gravado 00000000, calculado " + computed + ")"},
		{why("\x00\x00"+string(good), true), "2 NUL bytes before a record", "2 bytes NUL antes de um registro"},
		{why("\x00garbage", true), "NUL bytes inside the line", "bytes NUL dentro da linha"},
		{why(`{"type":"mess`, false), "torn last line, 13 bytes without a newline", "última linha cortada, 13 bytes sem quebra de linha"},
		{why("garbage", true), "journal: corrupt record: invalid character 'g' looking for beginning of value",
			"registro do journal corrompido: JSON inválido no byte 1: caractere inesperado 'g'"},
		{why(`{"type":"rewrite"} x`, true), "journal: corrupt record: invalid character 'x' after top-level value",
			"registro do journal corrompido: JSON inválido no byte 20: caractere inesperado 'x'"},
		{why(`{"type":"rewrite"`, true), "journal: corrupt record: unexpected end of JSON input",
			"registro do journal corrompido: o JSON termina antes da hora (byte 17)"},
		{why(`{"type":5}`, true), "journal: corrupt record: json: cannot unmarshal number into Go struct field wireRecord.Record.type of type string",
			"registro do journal corrompido: json: não dá para ler um número no campo Go wireRecord.Record.type, do tipo string"},
		{why(`{"type":"rewrite","seq":"1"}`, true), "journal: corrupt record: json: cannot unmarshal string into Go struct field wireRecord.Record.seq of type int64",
			"registro do journal corrompido: json: não dá para ler uma string no campo Go wireRecord.Record.seq, do tipo int64"},
	}
	pt := i18n.New(i18n.Portuguese).Plain()
	kinds := func(e error) string { return pt.Kind(e.Error()) }
	for _, c := range cases {
		if got := c.reason.String(); got != c.en {
			t.Errorf("in English: %q, want %q", got, c.en)
		}
		if got := i18n.New(i18n.English).TextWith(c.reason, kinds); got != c.en {
			t.Errorf("an English printer: %q, want %q", got, c.en)
		}
		got := pt.TextWith(c.reason, kinds)
		if got != c.pt {
			t.Errorf("%q in Portuguese: %q, want %q", c.en, got, c.pt)
		}
		for _, en := range []string{"corrupt", "record", "cannot", "invalid", "unexpected", "mismatch", "without", "bytes before", "line", "sealed", "envelope", "version", "illegal", "holds"} {
			if strings.Contains(got, en) && !strings.Contains(c.pt, en) {
				t.Errorf("%q in Portuguese keeps %q: %q", c.en, en, got)
			}
		}
	}
}

// why is the reason decodeLine gives for line.
func why(line string, complete bool) i18n.Text {
	_, reason := decodeLine([]byte(line), complete)
	return reason
}

// A warning names its file and line as they are, in either language.
func TestWarningIsSaidInBothLanguages(t *testing.T) {
	w := Warning{Path: "/s/j.jsonl", Line: 1234, Reason: i18n.Textf("%d NUL bytes", 4096)}
	if got, want := w.String(), "/s/j.jsonl:1234: skipped a damaged line (4096 NUL bytes)"; got != want || w.Said().String() != want {
		t.Errorf("%q, want %q", got, want)
	}
	if got, want := i18n.New(i18n.Portuguese).Text(w.Said()), "/s/j.jsonl:1234: linha danificada pulada (4.096 bytes NUL)"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
}

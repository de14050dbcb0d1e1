package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
)

// listEntry is one element of `chatcli session list --json`.
type listEntry struct {
	Name     string `json:"name"`
	Messages int    `json:"messages"`
	Error    string `json:"error"`
}

// sessionDoc is the part of `chatcli session show NAME --json` read here.
type sessionDoc struct {
	TranscriptID string    `json:"transcript_id"`
	ChatHistory  []message `json:"chat_history"`
	AgentHistory []message `json:"agent_history"`
	CoderHistory []message `json:"coder_history"`
}

// message is a message of a session document or of a JSONL export.
type message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// verifyReport is `chatcli storage verify --json`.
type verifyReport struct {
	Sound     bool            `json:"sound"`
	Sessions  int             `json:"sessions"`
	Trash     int             `json:"trash"`
	Journals  int             `json:"journals"`
	Damaged   int             `json:"damaged"`
	Unchecked int             `json:"unchecked"`
	Problems  []verifyProblem `json:"problems"`
}

// verifyProblem is one file verify did not find sound.
type verifyProblem struct {
	Path         string       `json:"path"`
	Kind         string       `json:"kind"`
	Verdict      string       `json:"verdict"`
	Error        string       `json:"error"`
	Lines        int          `json:"lines"`
	DamagedLines int          `json:"damaged_lines"`
	FirstDamaged []verifyLine `json:"first_damaged"`
}

// verifyLine is a damaged journal line verify lists.
type verifyLine struct {
	Line   int    `json:"line"`
	Reason string `json:"reason"`
}

// verifyFirstLines is how many damaged lines of one journal verify lists.
const verifyFirstLines = 5

// rekeyReport is `chatcli storage rekey --json`.
type rekeyReport struct {
	Rekeyed     int `json:"rekeyed"`
	Unchanged   int `json:"unchanged"`
	DamagedKept int `json:"damaged_lines_kept"`
	Failed      []struct {
		Path  string `json:"path"`
		Error string `json:"error"`
	} `json:"failed"`
}

// replyLine matches a reply of the offline provider. It quotes the last
// user message of the request, which holds consecutive user messages
// merged (a turn after killed, unanswered ones quotes the first of them),
// so a reply is matched to its prompt by position, not by what it quotes.
var replyLine = regexp.MustCompile(`^\[offline\] reply #[0-9]+ to: `)

// replies counts the replies printed completely (their line ended) on
// stdout: in a REPL script, the n-th is the reply to the n-th prompt.
func replies(stdout []byte) int {
	n := 0
	for {
		i := bytes.IndexByte(stdout, '\n')
		if i < 0 {
			return n // an unended last line is not a complete reply
		}
		if replyLine.Match(stdout[:i]) {
			n++
		}
		stdout = stdout[i+1:]
	}
}

// tokenOf is the harness token a prompt starts with ("" for none).
func tokenOf(content string) string {
	if i := strings.IndexByte(content, ' '); i >= 0 {
		content = content[:i]
	}
	if !tokenRe.MatchString(content) {
		return ""
	}
	return content
}

var tokenRe = regexp.MustCompile(`^[a-z][0-9]+-[0-9]+$`)

// turnsIn returns the tokens whose whole turn is in msgs: a user message
// starting with the token, answered by an offline reply after it (one
// reply answers the run of user messages before it).
func turnsIn(msgs []message) map[string]bool {
	var pending []string
	done := map[string]bool{}
	for _, m := range msgs {
		switch m.Role {
		case "user":
			if t := tokenOf(m.Content); t != "" {
				pending = append(pending, t)
			}
		case "assistant":
			if replyLine.MatchString(m.Content) {
				for _, t := range pending {
					done[t] = true
				}
				pending = pending[:0]
			}
		}
	}
	return done
}

// parseExport reads a JSONL export: one message a line.
func parseExport(data []byte) ([]message, error) {
	var msgs []message
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 1<<30)
	for sc.Scan() {
		var m message
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			return nil, err
		}
		msgs = append(msgs, m)
	}
	return msgs, sc.Err()
}

// trashName matches a trashed session file: <name>.<YYYYMMDD-HHMMSS>[-n].json.
var trashName = regexp.MustCompile(`^(.+)\.([0-9]{8}-[0-9]{6})(-[0-9]+)?\.json$`)

// trashCounts reads $CHATCLI_HOME/trash: how many copies of each session.
func trashCounts(home string) map[string]int {
	n := map[string]int{}
	ents, _ := os.ReadDir(filepath.Join(home, "trash"))
	for _, e := range ents {
		if m := trashName.FindStringSubmatch(e.Name()); m != nil && e.Type().IsRegular() {
			n[m[1]]++
		}
	}
	return n
}

// tempFiles lists the temporary files of atomic writes (".<file>.tmp-*")
// in sessions/, transcripts/ and trash/.
func tempFiles(home string) map[string]bool {
	set := map[string]bool{}
	for _, dir := range []string{"sessions", "transcripts", "trash"} {
		ents, _ := os.ReadDir(filepath.Join(home, dir))
		for _, e := range ents {
			if strings.HasPrefix(e.Name(), ".") && strings.Contains(e.Name(), ".tmp-") {
				set[filepath.Join(dir, e.Name())] = true
			}
		}
	}
	return set
}

// fileID identifies one version of a file: its inode, size and mtime.
type fileID struct {
	ino, size, mtime int64
}

// statID returns path's fileID (the zero fileID when it is absent).
func statID(path string) fileID {
	fi, err := os.Stat(path)
	if err != nil {
		return fileID{}
	}
	id := fileID{size: fi.Size(), mtime: fi.ModTime().UnixNano()}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		id.ino = int64(st.Ino)
	}
	return id
}

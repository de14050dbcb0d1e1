// Package editor is the line editor the interactive REPL uses on a terminal.
//
// # Contract
//
// An Editor reads one input per ReadLine call: one line or several. On a
// terminal each call runs a short-lived, inline bubbletea program (no
// alternate screen) around a bubbles textarea and exits, so the caller
// prints its own output normally between prompts. The finished input stays
// on screen, each line after the first indented under the prompt, and the
// cursor ends at the start of the next line.
//
// Keys:
//
//	Enter              send the input
//	Alt+Enter, Ctrl+J  insert a line break (Shift+Enter and Ctrl+Enter too,
//	                   where the terminal reports them). A line feed read
//	                   within 200 ms of the editor starting is Enter: it is
//	                   what Enter becomes when typed ahead outside raw mode
//	Left, Right        move by one character (a grapheme cluster, so "ç",
//	                   "é" written as e + U+0301 and emoji move and delete
//	                   as one), across line ends; Ctrl+B, Ctrl+F likewise
//	Backspace, Delete  delete the character before / under the cursor,
//	                   joining lines at their ends; Backspace right after a
//	                   fold label removes the label (and its paste) whole
//	Ctrl+A, Ctrl+E     start / end of the line; Home and End likewise
//	Ctrl+W, Ctrl+K, Ctrl+U, Alt+Left, Alt+Right
//	                   word and line editing as in bubbles' textarea
//	Up, Down           move between lines; from the first (last) line, the
//	                   older (newer) history entry (Ctrl+P, Ctrl+N
//	                   likewise); past the newest entry the input being
//	                   typed comes back
//	Ctrl+R             reverse incremental history search: text narrows,
//	                   Backspace widens, Ctrl+R finds an older match, Enter
//	                   sends the match, Esc, Ctrl+G or Ctrl+C give up (the
//	                   input is as it was), any other key takes the match
//	                   into the input and acts there
//	Tab                complete: Config.Complete returns full replacement
//	                   lines; one candidate replaces the line; several are
//	                   listed under the input, the first Tab extends the line
//	                   to their common prefix (or selects the first one) and
//	                   each further Tab selects the next (Shift+Tab: the
//	                   previous); any other key hides the list
//	Ctrl+C             ReadLine returns ErrInterrupt
//	Ctrl+D             on an empty input ReadLine returns io.EOF; otherwise
//	                   it deletes the character under the cursor
//	Esc Esc            two Esc presses within 500 ms on an empty input (by
//	                   the Config.Now clock) make ReadLine return
//	                   ErrDoubleEsc; any other key in between cancels the pair
//
// A bracketed paste is inserted as pasted, except that each CR LF or lone
// CR becomes a line feed (terminals send a carriage return for each line
// break of a paste). The textarea would turn tabs into spaces and drop
// other control characters, so a paste holding any of those, or more than
// 10 lines, is folded: the input shows a label, "[pasted 42 lines]" (a
// one-line paste: "[pasted 80 characters]"; later ones in the same input
// numbered, "[pasted 42 lines #2]"), and ReadLine returns the paste in its
// place. A recalled history entry that would not survive the textarea is
// folded the same way. The value ReadLine returns is thus exactly what was
// typed and pasted.
//
// On any error ReadLine returns an empty string. No key is lost between
// two inputs: the editor reads the terminal itself and hands its bytes to
// bubbletea through a pipe (handover.go) until the input is finished, then
// ends the pipe with a mark (never inside a bracketed paste: a paste is
// handed over once it has ended); keys read after the finishing key (typed
// ahead while the caller was printing, or sent in one burst) are kept and
// replayed into the next ReadLine, in the order typed. After ReadKey's
// answer only what TypeAhead keeps is kept (text, Enter, Backspace,
// pastes), as the answer comes during a turn.
//
// A cancelled context makes ReadLine return ctx.Err(). When Config.In or
// Config.Out is not a terminal, ReadLine writes the prompt and reads one
// plain line instead (no editing keys, no escape sequences written),
// returning io.EOF at the end of the input.
//
// # History file
//
// The history is a UTF-8 text file, one entry per line, oldest first, each
// line ended by "\n". It is created 0600 (its directory 0700 when missing).
//
// An entry is written verbatim unless it contains a line feed or a carriage
// return, or starts with a backslash. Such an entry is written as a
// backslash followed by the entry with each "\" written as `\\`, each line
// feed as `\n` and each carriage return as `\r`. For example:
//
//	entry (Go string)          line in the file
//	"/session save notas"      /session save notas
//	"first\nsecond"            \first\nsecond
//	`C:\temp`                  C:\temp
//	`\d+ digits`               \\\d+ digits
//
// When reading, a line starting with a backslash is decoded that way (an
// unknown escape, or a backslash ending the line, is kept as written); any
// other line is the entry itself, so a plain one-line-per-entry file written
// by another program reads back unchanged. A trailing "\r" (CRLF line
// endings) is dropped and empty lines are skipped. A file holding a NUL byte
// or invalid UTF-8 is corrupt: New reports ErrCorruptHistory naming the file
// and the line, and the file is never rewritten.
//
// Editor.Add skips blank lines and a repeat of the newest entry, then
// appends one line with a single write, starting a new line first if the
// file does not end with one, and fsyncs it. When the file then holds more
// than HistoryMax entries (counting lines other processes appended) or more
// than HistoryMaxBytes bytes, it is rewritten atomically with its newest
// entries within both caps: temp file in the
// same directory, write, fsync, close, rename, fsync of the directory; on
// failure the temp file is removed and the old file is left as it was.
//
// # Encryption
//
// With Config.HistoryKey set (CHATCLI_ENCRYPTION_KEY) and
// Config.HistoryPlaintext off, every line is the one-line form of an entry
// (above) sealed as a line for the name "history" (package seal, "Line
// form"): "chatcli-sealed:v1:" and the base64 of its envelope. Appends stay
// one line each. An entry that starts with "chatcli-sealed:" is written
// escaped (a backslash first), so a plaintext line is never taken for a
// sealed one. A file holding lines in the other form than the one New
// writes (plaintext lines once a key is set, sealed lines with
// HistoryPlaintext) is rewritten in its form when loaded or appended to.
// Without a key, a sealed line makes New fail with ErrSealedHistory; with
// the wrong key, with an error wrapping seal.ErrWrongKey naming the file and
// line. Neither is ErrCorruptHistory: the file is left as it is.
package editor

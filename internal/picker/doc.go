// Package picker is the full-screen session chooser behind `chatcli
// --resume` and `/resume` on a terminal (bubbletea).
//
// It draws at once and lets rows stream in (Source.Rows sends them in
// batches while the first frame is already on screen; nothing but headers
// is needed to draw a row). One row per session: name, title, relative
// age ("3 hours ago"), message count and the folder the session was last
// used in. Typing filters by name and title; after a short pause, a query
// of three or more characters is also searched in the sessions' content
// (Source.Search, BM25) and those hits are listed below the name matches,
// with their snippet. The preview pane shows the last messages of the
// highlighted row (Source.Preview, read only for that row).
//
// Keys: Up/Down (Ctrl+P/Ctrl+N), PgUp/PgDown move; Enter resumes the
// highlighted session; Ctrl+R renames it (type the new name, Enter);
// Ctrl+D moves it to the trash after a y/n question; Tab switches between
// the sessions of this folder and all of them; Esc or Ctrl+C leaves
// without choosing. The layout fits 80x24 and adapts to the window size.
package picker

package i18n

// shadowErrors are the catalog of the errors of the file checkpoints of
// coder mode (package shadow), made by Errorf, and of a file restore that
// failed (/rewind N code): what /rewind, /session and chatcli storage
// say when a checkpoint cannot be taken, read or restored. The paths, ids
// and git's own words stay as they are.
var shadowErrors = []struct{ en, pt string }{
	// kinds of error
	{"shadow: git not found on PATH (file checkpoints in coder mode need git)",
		"checkpoints de arquivos: o git não está no PATH (os checkpoints de arquivos do modo coder precisam do git)"},
	{"shadow: unknown checkpoint id", "checkpoints de arquivos: id de checkpoint desconhecido"},
	{"shadow: the file checkpoints of this folder are encrypted: set CHATCLI_ENCRYPTION_KEY",
		"checkpoints de arquivos: os checkpoints de arquivos desta pasta estão criptografados: defina CHATCLI_ENCRYPTION_KEY"},
	{"shadow: change reported without BeforeChange", "checkpoints de arquivos: mudança informada sem BeforeChange"},
	{"shadow: damaged manifest", "checkpoints de arquivos: manifesto danificado"},
	// what the file system or git refused
	{"shadow: %w", "checkpoints de arquivos: %[1]v"},
	{"shadow: read %s: %w", "checkpoints de arquivos: leitura de %[1]s: %[2]v"},
	{"shadow: open %s: %w", "checkpoints de arquivos: abrir %[1]s: %[2]v"},
	{"shadow: seal %s: %w", "checkpoints de arquivos: selar %[1]s: %[2]v"},
	{"shadow: remove %s: %w", "checkpoints de arquivos: remover %[1]s: %[2]v"},
	{"shadow: restore %s: %w", "checkpoints de arquivos: restaurar %[1]s: %[2]v"},
	{"shadow: lock %s: %w", "checkpoints de arquivos: travar %[1]s: %[2]v"},
	{"shadow: make %s private: %w", "checkpoints de arquivos: tornar a pasta %[1]s privada: %[2]v"},
	{"shadow: workspace %s: %w", "checkpoints de arquivos: workspace %[1]s: %[2]v"},
	{"shadow: git %s in %s: %w: %s", "checkpoints de arquivos: git %[1]s em %[2]s: %[3]v: %[4]s"},
	{"shadow: git cat-file: object %s", "checkpoints de arquivos: git cat-file: objeto %[1]s"},
	{"shadow: git cat-file: truncated output", "checkpoints de arquivos: git cat-file: saída truncada"},
	{"shadow: git fast-import returned %q, not a commit id",
		"checkpoints de arquivos: o git fast-import devolveu %[1]q, que não é um id de commit"},
	{"shadow: git hash-object returned %d ids for %d files",
		"checkpoints de arquivos: o git hash-object devolveu %[1]d {id|ids} para %[2]d {arquivo|arquivos}"},
	{"shadow: a run_command line was not recorded: %w",
		"checkpoints de arquivos: uma linha de run_command não foi registrada: %[1]v"},
	// the workspace and the paths a tool changes
	{"shadow: workspace %s is not a folder", "checkpoints de arquivos: o workspace %[1]s não é uma pasta"},
	{"shadow: %s is not inside the workspace %s", "checkpoints de arquivos: %[1]s não está dentro do workspace %[2]s"},
	{"shadow: %s is not a regular file, folder or symbolic link",
		"checkpoints de arquivos: %[1]s não é um arquivo comum, uma pasta nem um link simbólico"},
	{"shadow: cannot track %q: newline in its path",
		"checkpoints de arquivos: não é possível acompanhar %[1]q: há uma quebra de linha no caminho"},
	{"shadow: %s: not an absolute path", "checkpoints de arquivos: %[1]s: não é um caminho absoluto"},
	// the checkpoints and their contents
	{"%w %q: not 40 hex digits", "%[1]v %[2]q: não tem 40 dígitos hexadecimais"},
	{"%w %q: the workspace %s has no checkpoints", "%[1]v %[2]q: o workspace %[3]s não tem checkpoints"},
	{"%w %q in %s", "%[1]v %[2]q em %[3]s"},
	{"%w (%s)", "%[1]v (%[2]s)"},
	{"%w: %s", "%[1]v: %[2]s"},
	{"%w: %s: no manifest header or torn end", "%[1]v: %[2]s: sem o cabeçalho do manifesto ou com o fim cortado"},
	{"%w: %s: record %d", "%[1]v: %[2]s: registro %[3]d"},
	{"%s: record %d: %w", "%[1]s: registro %[2]d: %[3]v"},
	{"%w: kind %q", "%[1]v: tipo %[2]q"},
	{"%w: permissions %q", "%[1]v: permissões %[2]q"},
	{"shadow: object %s missing from %s", "checkpoints de arquivos: o objeto %[1]s não está em %[2]s"},
	{"shadow: object %s of %s is missing", "checkpoints de arquivos: o objeto %[1]s de %[2]s está faltando"},
	{"shadow: %s: checkpoint %s has no manifest", "checkpoints de arquivos: %[1]s: o checkpoint %[2]s não tem manifesto"},
	{"shadow: %s: object %s reads back as %s", "checkpoints de arquivos: %[1]s: o objeto %[2]s é lido de volta como %[3]s"},
	{"shadow: %s holds file checkpoints written without a key; sealing them needs git: %w",
		"checkpoints de arquivos: %[1]s guarda checkpoints de arquivos gravados sem chave; selá-los precisa do git: %[2]v"},
	// a file restore that failed (/rewind N code)
	{"rewind: restoring the files failed", "rewind: a restauração dos arquivos falhou"},
	{"%w: %w", "%[1]v: %[2]v"},
}

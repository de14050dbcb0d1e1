package i18n

// retryMessages are the catalog of the notices that say a provider's
// request is being retried (the conversation engine's, printed as
// "note: …").
var retryMessages = []struct{ en, pt string }{
	{"HTTP %d from %s; retrying in %s s (attempt %d of %d)…",
		"HTTP %[1]d de %[2]s; nova tentativa em %[3]s s (tentativa %[4]d de %[5]d)…"},
	{"%s could not be reached (%v); retrying in %s s (attempt %d of %d)…",
		"não foi possível conectar a %[1]s (%[2]v); nova tentativa em %[3]s s (tentativa %[4]d de %[5]d)…"},
}

// completionHelp are the catalog of the long help of cobra's completion
// commands (`chatcli completion bash|zsh|fish|powershell --help`), each
// English text as cobra writes it for chatcli (the bash one wrapped to
// 80 columns); the commands to run are kept as they are.
var completionHelp = []struct{ en, pt string }{
	{`Generate the autocompletion script for the bash shell.

This script depends on the 'bash-completion' package.
If it is not installed already, you can install it via your OS's
package manager.

To load completions in your current shell session:

	source <(chatcli completion bash)

To load completions for every new session, execute once:

#### Linux:

	chatcli completion bash > /etc/bash_completion.d/chatcli

#### macOS:

	chatcli completion bash > $(brew --prefix)/etc/bash_completion.d/chatcli

You will need to start a new shell for this setup to take effect.
`, `Gera o script de autocompletar para o shell bash.

Este script depende do pacote 'bash-completion'.
Se ele ainda não estiver instalado, instale-o pelo gerenciador de pacotes
do seu sistema.

Para carregar o autocompletar na sessão atual do shell:

	source <(chatcli completion bash)

Para carregá-lo em cada nova sessão, execute uma vez:

#### Linux:

	chatcli completion bash > /etc/bash_completion.d/chatcli

#### macOS:

	chatcli completion bash > $(brew --prefix)/etc/bash_completion.d/chatcli

Abra um novo shell para que a configuração tenha efeito.
`},
	{`Generate the autocompletion script for the zsh shell.

If shell completion is not already enabled in your environment you will need
to enable it.  You can execute the following once:

	echo "autoload -U compinit; compinit" >> ~/.zshrc

To load completions in your current shell session:

	source <(chatcli completion zsh)

To load completions for every new session, execute once:

#### Linux:

	chatcli completion zsh > "${fpath[1]}/_chatcli"

#### macOS:

	chatcli completion zsh > $(brew --prefix)/share/zsh/site-functions/_chatcli

You will need to start a new shell for this setup to take effect.
`, `Gera o script de autocompletar para o shell zsh.

Se o autocompletar do shell ainda não estiver ativado no seu ambiente, é
preciso ativá-lo. Basta executar uma vez:

	echo "autoload -U compinit; compinit" >> ~/.zshrc

Para carregar o autocompletar na sessão atual do shell:

	source <(chatcli completion zsh)

Para carregá-lo em cada nova sessão, execute uma vez:

#### Linux:

	chatcli completion zsh > "${fpath[1]}/_chatcli"

#### macOS:

	chatcli completion zsh > $(brew --prefix)/share/zsh/site-functions/_chatcli

Abra um novo shell para que a configuração tenha efeito.
`},
	{`Generate the autocompletion script for the fish shell.

To load completions in your current shell session:

	chatcli completion fish | source

To load completions for every new session, execute once:

	chatcli completion fish > ~/.config/fish/completions/chatcli.fish

You will need to start a new shell for this setup to take effect.
`, `Gera o script de autocompletar para o shell fish.

Para carregar o autocompletar na sessão atual do shell:

	chatcli completion fish | source

Para carregá-lo em cada nova sessão, execute uma vez:

	chatcli completion fish > ~/.config/fish/completions/chatcli.fish

Abra um novo shell para que a configuração tenha efeito.
`},
	{`Generate the autocompletion script for powershell.

To load completions in your current shell session:

	chatcli completion powershell | Out-String | Invoke-Expression

To load completions for every new session, add the output of the above command
to your powershell profile.
`, `Gera o script de autocompletar para o powershell.

Para carregar o autocompletar na sessão atual do shell:

	chatcli completion powershell | Out-String | Invoke-Expression

Para carregá-lo em cada nova sessão, acrescente a saída do comando acima
ao seu perfil do powershell.
`},
}

// hintErrors are the catalog of the errors whose hint names the command
// that numbers or lists what they refer to: the headless verbs name
// chatcli's own commands, the errors both surfaces share name both.
var hintErrors = []struct{ en, pt string }{
	{"%w: --at %d: want a message number, 1 or more (`chatcli session export %s md -` numbers them)",
		"%[1]v: --at %[2]d: use um número de mensagem, 1 ou mais (`chatcli session export %[3]s md -` as numera)"},
	{"%w: %d (the transcript of %q has %d messages; `chatcli session export %s md -` numbers them)",
		"%[1]v: %[2]d (a transcrição de %[3]q tem %[4]d {mensagem|mensagens}; `chatcli session export %[5]s md -` as numera)"},
	{"%w: session %q was changed elsewhere; this task's work so far is kept as session %q (/session load %s, or `chatcli --resume %s`, continues it)",
		"%[1]v: a sessão %[2]q foi alterada em outro lugar; o trabalho desta tarefa até aqui fica na sessão %[3]q (/session load %[4]s, ou `chatcli --resume %[5]s`, o continua)"},
	{"%w: %q (/context list or `chatcli context list` shows them)",
		"%[1]v: %[2]q (/context list ou `chatcli context list` mostra os contextos)"},
	{"%w: %q; delete it first (/context delete %s, or `chatcli context delete %s --yes`), or choose another name",
		"%[1]v: %[2]q; apague-o antes (/context delete %[3]s, ou `chatcli context delete %[4]s --yes`), ou escolha outro nome"},
	{"%w: %d (there are %d notes; /memory list or `chatcli memory list` numbers them)",
		"%[1]v: %[2]d (há %[3]d {nota|notas}; /memory list ou `chatcli memory list` as numera)"},
	{"memory: a note holds at most %d bytes (this one has %d); a context keeps longer text (/context create, or `chatcli context create`)",
		"memória: uma nota tem no máximo %[1]d bytes (esta tem %[2]d); um contexto guarda textos maiores (/context create, ou `chatcli context create`)"},
}

// hintHelp are the catalog of the flag lines whose hint names the
// headless command that numbers what they take.
var hintHelp = []struct{ en, pt string }{
	{"the fork holds messages 1..`N` of SRC's transcript, as `chatcli session export SRC md -` numbers them",
		"o fork guarda as mensagens 1..`N` da transcrição de SRC, como `chatcli session export SRC md -` as numera"},
}

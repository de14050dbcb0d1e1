package i18n

// chatMessages are the catalog of what chatcli gateway itself says into a
// chat: the answers to /help, /session and /hub, the labels of an error,
// a warning and a notice after a reply, and how a hub event reads (in a
// chat, and in a terminal's /hub). The prompts and replies relayed are
// never translated.
var chatMessages = []struct{ en, pt string }{
	{"Send a message to talk. Your conversation is kept in chatcli's session store.\n\n/session attach NAME: continue session NAME (created when missing), the same one the terminal and IDEs use\n/session detach: stop writing to it, keep the conversation\n/session status: which session this chat is bound to\n/session save NAME: save this conversation as NAME and bind to it (--yes replaces another)\n/session list: the saved sessions\n/session new: start an empty conversation\n/hub join NAME: see live the turns of the terminals and chats in hub thread NAME (/hub leave, /hub)\n\nDeleting a session is not possible from a chat: use chatcli session delete NAME in a terminal.",
		"Mande uma mensagem para conversar. Sua conversa fica guardada no armazenamento de sessões do chatcli.\n\n/session attach NOME: continua a sessão NOME (criada se não existir), a mesma que o terminal e as IDEs usam\n/session detach: para de gravar nela, mantém a conversa\n/session status: a que sessão este chat está vinculado\n/session save NOME: salva esta conversa como NOME e a vincula (--yes substitui outra)\n/session list: as sessões salvas\n/session new: começa uma conversa vazia\n/hub join NOME: vê ao vivo os turnos dos terminais e chats da thread NOME do hub (/hub leave, /hub)\n\nSessões não podem ser apagadas de um chat: use chatcli session delete NOME num terminal."},
	{"Deleting a session is not possible from a chat; use `chatcli session delete NAME` in a terminal.",
		"Sessões não podem ser apagadas de um chat; use `chatcli session delete NOME` num terminal."},
	{"%s is not available in a chat; /help lists what is.", "%[1]s não está disponível num chat; /help lista o que está."},
	{"error: %s", "erro: %[1]s"},
	{"\nwarning: %s", "\naviso: %[1]s"},
	{"\n\nnote: %s", "\n\nnota: %[1]s"},
	{"\n\nwarning: %s", "\n\naviso: %[1]s"},
	{"The Conversation Hub is not available here.", "O Conversation Hub não está disponível aqui."},
	{"Joined hub thread %q (%d members, %d recent turns). The turns of its other members are shown here as they end; /hub leave stops that.",
		"Entrou na thread do hub '%[1]s' (%[2]d {membro|membros}, %[3]d {turno recente|turnos recentes}). Os turnos dos outros membros aparecem aqui quando terminam; /hub leave para com isso."},
	{"Left hub thread %q.", "Saiu da thread do hub '%[1]s'."},
	{"In hub thread %q with %d members.", "Na thread do hub '%[1]s' com %[2]d {membro|membros}."},
	{"In no hub thread; /hub join NAME joins one.", "Em nenhuma thread do hub; /hub join NOME entra numa."},
	{"usage: /hub [join NAME | leave]", "uso: /hub [join NOME | leave]"},
	{"[hub %s] %s started another conversation; earlier turns are no longer relayed.",
		"[hub %[1]s] %[2]s começou outra conversa; os turnos anteriores deixam de ser repassados."},
	{"[hub %s] %s asked: %s\n[hub %s] reply to %s:\n%s",
		"[hub %[1]s] %[2]s perguntou: %[3]s\n[hub %[4]s] resposta para %[5]s:\n%[6]s"},
}

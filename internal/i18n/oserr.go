package i18n

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
)

// osSaid is err, an error of the operating system (*fs.PathError,
// *os.LinkError, *os.SyscallError around a syscall.Errno), in p's
// language: the operation and the paths as the error names them (they are
// the system's words and the person's files), the errno's text in
// Portuguese as glibc's pt_BR catalog words it, "pasta" for a directory
// as chatcli's messages say it. False for any other error, and for an
// errno the table below does not hold (its English text stays).
func (p *Printer) osSaid(err error) (string, bool) {
	switch e := err.(type) {
	case *fs.PathError:
		if s, ok := p.errnoSaid(e.Err); ok {
			return e.Op + " " + e.Path + ": " + s, true
		}
	case *os.LinkError:
		if s, ok := p.errnoSaid(e.Err); ok {
			return e.Op + " " + e.Old + " " + e.New + ": " + s, true
		}
	case *os.SyscallError:
		if s, ok := p.errnoSaid(e.Err); ok {
			return e.Syscall + ": " + s, true
		}
	default:
		return p.errnoSaid(err)
	}
	return "", false
}

// errnoSaid is err, a syscall.Errno, in Portuguese.
func (p *Printer) errnoSaid(err error) (string, bool) {
	var n syscall.Errno
	if !errors.As(err, &n) || err != error(n) {
		return "", false
	}
	s, ok := errnoWords[n]
	return s, ok
}

// errnoWords are the Portuguese texts of the errors a store, a tool or a
// connection meets most.
var errnoWords = map[syscall.Errno]string{
	syscall.ENOENT:       "arquivo ou pasta inexistente",
	syscall.EACCES:       "permissão negada",
	syscall.EPERM:        "operação não permitida",
	syscall.EEXIST:       "o arquivo já existe",
	syscall.ENOTDIR:      "não é uma pasta",
	syscall.EISDIR:       "é uma pasta",
	syscall.ENOTEMPTY:    "pasta não vazia",
	syscall.ENOSPC:       "não há espaço disponível no dispositivo",
	syscall.EDQUOT:       "cota de disco excedida",
	syscall.EROFS:        "sistema de arquivos somente para leitura",
	syscall.EIO:          "erro de entrada/saída",
	syscall.EBUSY:        "dispositivo ou recurso ocupado",
	syscall.EXDEV:        "link inválido entre dispositivos",
	syscall.EMFILE:       "arquivos abertos demais",
	syscall.ENAMETOOLONG: "nome de arquivo longo demais",
	syscall.ECONNREFUSED: "conexão recusada",
	syscall.ETIMEDOUT:    "a conexão expirou",
}

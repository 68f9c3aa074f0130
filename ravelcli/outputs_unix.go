//go:build unix

package ravelcli

import (
	"errors"
	"os"
	"syscall"
)

// writable reports whether the process may write to the file at path, without opening
// it (access(2)).
func writable(path string) error {
	return syscall.Access(path, 2) // W_OK
}

// descriptorWritable reports whether descriptor fd is open for writing.
func descriptorWritable(fd int) error {
	flags, _, errno := syscall.Syscall(syscall.SYS_FCNTL, uintptr(fd), syscall.F_GETFL, 0)
	switch {
	case errno != 0:
		return errno
	case flags&syscall.O_ACCMODE == syscall.O_RDONLY:
		return errors.New("not open for writing")
	}
	return nil
}

// dupDescriptor is a copy of descriptor fd, sharing its place in the file, to write
// through and close without closing fd.
func dupDescriptor(fd int, name string) (*os.File, error) {
	d, err := syscall.Dup(fd)
	if err != nil {
		return nil, &os.PathError{Op: "dup", Path: name, Err: err}
	}
	syscall.CloseOnExec(d)
	return os.NewFile(uintptr(d), name), nil
}

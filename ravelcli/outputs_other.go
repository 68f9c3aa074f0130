//go:build !unix

package ravelcli

import "os"

// writable cannot tell on this platform without opening the file; the write at the end
// says.
func writable(string) error { return nil }

// descriptorWritable cannot tell on this platform; the write at the end says.
func descriptorWritable(int) error { return nil }

// dupDescriptor opens the descriptor's name again on this platform.
func dupDescriptor(_ int, name string) (*os.File, error) {
	return os.OpenFile(name, os.O_WRONLY, 0)
}

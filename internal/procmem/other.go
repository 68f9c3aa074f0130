//go:build !linux

package procmem

// Read reports nothing: only Linux separates anonymous from file-backed memory.
func Read() (Usage, bool) { return Usage{}, false }

// ReadPID reports nothing outside Linux.
func ReadPID(int) (Usage, bool) { return Usage{}, false }

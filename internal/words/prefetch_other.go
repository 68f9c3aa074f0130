//go:build !amd64 && !arm64

package words

import "unsafe"

// Prefetch does nothing on this architecture (see prefetch.go).
func Prefetch(p unsafe.Pointer) {}

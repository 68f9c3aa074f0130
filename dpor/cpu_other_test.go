//go:build !unix

package dpor_test

import "testing"

// processCPU is −1: this platform's process times are not read here.
func processCPU(*testing.B) int64 { return -1 }

//go:build !linux

package words

// adviseHugePages does nothing on this platform.
func adviseHugePages([]uint64) {}

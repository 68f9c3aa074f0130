//go:build !race

package visited

const raceEnabled = false

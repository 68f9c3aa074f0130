//go:build race

package visited

// raceEnabled: the race detector slows the disk path down, so the tests add fewer
// fingerprints.
const raceEnabled = true

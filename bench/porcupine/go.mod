module github.com/ravelmc/ravel/bench/porcupine

go 1.26

require (
	github.com/anishathalye/porcupine v1.3.1
	github.com/ravelmc/ravel v0.0.0
)

require github.com/cespare/xxhash/v2 v2.3.0 // indirect

replace github.com/ravelmc/ravel => ../..

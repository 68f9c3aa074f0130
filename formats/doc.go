// Package formats reads recorded histories from files into histories.Operation values
// that the wgl checker takes, one file per format: porcupine's key-value logs
// (porcupine_kv.go) now, Jepsen's etcd logs beside it later.
//
// Every reader takes the name of what it reads (a file name, usually) and reports a
// malformed input as a *ParseError, whose message starts with "name:line: ", the way
// compilers do, and says what was expected there.
package formats

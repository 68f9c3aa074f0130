// Package formats reads recorded histories from files into histories.Operation values
// that the wgl checker takes, one file per format:
//
//   - ReadPorcupineKV: porcupine's key-value logs, one EDN map a line (specs.KV);
//   - ReadJepsen: Jepsen's logs and history.edn of a compare-and-set register, such as
//     the etcd logs of Knossos and porcupine (specs.CASRegister);
//   - ReadRavel and WriteRavel: Ravel's own format, one JSON object an operation, for
//     any specification with a Codec (specs.Register, specs.CASRegister and specs.KV have one each); it is
//     the only one with a writer, and what it writes reads back the same.
//
// Every reader takes the name of what it reads (a file name, usually) and reports a
// malformed input as a *ParseError, whose message starts with "name:line: ", the way
// compilers do, and says what was expected there. docs/lincheck.md describes the formats
// for users.
package formats

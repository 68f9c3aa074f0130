package live

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/ravelmc/ravel/formats"
	"github.com/ravelmc/ravel/histories"
	"github.com/ravelmc/ravel/specs"
)

// writeLincheckHistories writes hist as ravel lincheck reads it: one file per key,
// history-KEY.jsonl (the workload's keys are k0, k1, …), in Ravel's format for the
// cas-register specification, the operations in the order of the history and the key
// left out. Spec is specs.Keyed(specs.CASRegister()), checked key by key, and a history
// is linearizable exactly when each key's operations are (linearizability is local:
// Herlihy and Wing 1990, §3.3), so `ravel lincheck --spec cas-register --format ravel
// DIR/history-*.jsonl` gives the iteration's verdict again, and its --html draws the
// failing key.
func writeLincheckHistories(dir string, hist []Op) error {
	byKey := map[string][]histories.Operation[specs.CASInput, specs.CASOutput]{}
	for _, op := range hist {
		byKey[op.Input.Key] = append(byKey[op.Input.Key], histories.Operation[specs.CASInput, specs.CASOutput]{
			Client: op.Client, Input: op.Input.In, Output: op.Output, Call: op.Call, Return: op.Return, Open: op.Open,
		})
	}
	keys := make([]string, 0, len(byKey))
	for k := range byKey {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		var b bytes.Buffer
		if err := formats.WriteRavel(&b, byKey[k], formats.CASCodec()); err != nil {
			return fmt.Errorf("live: the history of key %s: %w", k, err)
		}
		if err := os.WriteFile(filepath.Join(dir, "history-"+k+".jsonl"), b.Bytes(), 0o644); err != nil {
			return fmt.Errorf("live: %w", err)
		}
	}
	return nil
}

package ravelcli

import (
	"fmt"
	"strings"
	"time"

	"github.com/ravelmc/ravel/report"
)

// copyHintSteps is how many steps a search takes before check suggests a Clone method:
// about half a second of copying by reflection on a small actor (the trial's sharded
// key-value store, 88,236 steps in 0.66 s), where the method's steps would have taken a
// tenth of that. Below it the run is over before the copying matters.
var copyHintSteps int64 = 50_000

// copySlow is how long a reflective copy of one actor takes before check suggests a
// Clone method however short the search: a millisecond a step is slow in any search (a
// state of a megabyte in a []byte takes more than half a second, as copystructure
// copies a slice one element at a time).
const copySlow = time.Millisecond

// copyHint suggests a Clone method for the actor types r's search copied by reflection,
// once the search was long enough for it to matter, or a copy slow enough (copySlow):
// that copy is most of a step's cost (README, "Rules a handler follows"). Empty when
// every actor has one, or when the user asked for the reflective copy (--reflective).
func copyHint(r checkReport) string {
	slow := r.copyEach >= copySlow
	if r.reflective || len(r.ReflectiveCopies) == 0 || r.Steps < copyHintSteps && !slow {
		return ""
	}
	each := ""
	if slow {
		each = fmt.Sprintf(", about %v a copy", roundDuration(r.copyEach))
	}
	return fmt.Sprintf("hint: %s %s no Clone() model.Actor method, so each of the %s steps copied %s by reflection (copystructure%s); a Clone method makes a step several times cheaper (README, \"Rules a handler follows\")",
		strings.Join(r.ReflectiveCopies, ", "), hasHave(len(r.ReflectiveCopies)), report.Thousands(r.Steps), itThem(len(r.ReflectiveCopies)), each)
}

func hasHave(n int) string {
	if n == 1 {
		return "has"
	}
	return "have"
}

func itThem(n int) string {
	if n == 1 {
		return "it"
	}
	return "them"
}

package ravelcli

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/report"
	"github.com/ravelmc/ravel/snapshot"
)

// reflectiveCopies names the types of sys's actors that each step copies by reflection
// (copystructure): every type without a Clone() model.Actor method, or every type when
// reflective (--reflective) ignores those methods. Sorted, each once.
func reflectiveCopies(sys *model.System, reflective bool) []string {
	var names []string
	for _, a := range sys.Actors {
		if _, ok := a.(snapshot.Cloner); ok && !reflective {
			continue
		}
		if n := fmt.Sprintf("%T", a); !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	return names
}

// copyHintSteps is how many steps a search takes before check suggests a Clone method:
// about half a second of copying by reflection on a small actor (the trial's sharded
// key-value store, 88,236 steps in 0.66 s), where the method's steps would have taken a
// tenth of that. Below it the run is over before the copying matters.
var copyHintSteps int64 = 50_000

// copyHint suggests a Clone method for the actor types r's search copied by reflection,
// once the search was long enough for it to matter: that copy is most of a step's cost
// (README, "Rules a handler follows"). Empty when every actor has one, or when the user
// asked for the reflective copy (--reflective).
func copyHint(r checkReport) string {
	if r.reflective || len(r.ReflectiveCopies) == 0 || r.Steps < copyHintSteps {
		return ""
	}
	return fmt.Sprintf("hint: %s %s no Clone() model.Actor method, so each of the %s steps copied %s by reflection (copystructure); a Clone method makes a step several times cheaper (README, \"Rules a handler follows\")",
		strings.Join(r.ReflectiveCopies, ", "), hasHave(len(r.ReflectiveCopies)), report.Thousands(r.Steps), itThem(len(r.ReflectiveCopies)))
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

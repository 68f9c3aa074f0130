package snapshot

import (
	"reflect"
	"testing"
)

type sharedBox struct{ V int }

type sharedState struct {
	Name  string
	M     map[string]int
	Log   []int
	P     *sharedBox
	Any   any
	inner []*sharedBox
}

// TestSharedPaths: the maps, pointers and backing arrays a copy shares with the
// original are named by their path in the copy; strings and what was copied are not.
func TestSharedPaths(t *testing.T) {
	a := &sharedState{Name: "x", M: map[string]int{"v": 1}, Log: []int{1, 2}, P: &sharedBox{1}, Any: &sharedBox{2}, inner: []*sharedBox{{3}}}
	deep := &sharedState{Name: a.Name, M: map[string]int{"v": 1}, Log: []int{1, 2}, P: &sharedBox{1}, Any: &sharedBox{2}, inner: []*sharedBox{{3}}}
	if got := SharedPaths(a, deep, 5); got != nil {
		t.Errorf("deep copy: %v; want none", got)
	}
	shallow := *a
	got := SharedPaths(a, &shallow, 10)
	want := []string{"snapshot.sharedState.M", "snapshot.sharedState.Log", "snapshot.sharedState.P", "snapshot.sharedState.Any.(*snapshot.sharedBox)", "snapshot.sharedState.inner"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("shallow copy: %v; want %v", got, want)
	}
	part := *deep
	part.inner = []*sharedBox{a.inner[0]}
	if got, want := SharedPaths(a, &part, 3), []string{"snapshot.sharedState.inner[0]"}; !reflect.DeepEqual(got, want) {
		t.Errorf("a shared element: %v; want %v", got, want)
	}
	if got := SharedPaths(a, &shallow, 1); len(got) != 1 {
		t.Errorf("max 1: %v", got)
	}
}

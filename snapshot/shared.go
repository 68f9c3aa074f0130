package snapshot

import (
	"fmt"
	"reflect"
)

// SharedPaths returns up to max paths, in b, of the maps, pointers and slices' backing
// arrays that b shares with a: what a Clone method that returned b for a failed to copy,
// e.g. "odd.Shallow.M". Strings, funcs and channels are not counted (strings cannot be
// changed; funcs and channels are Clone's to share), nor are pointers to zero-size
// values. It reads unexported fields too, and follows interfaces. Sharing is not always
// wrong — data no handler changes may be shared — so the explorer calls it only once a
// handler has changed the original through its copy, to name where (explorer's check of
// Clone).
func SharedPaths(a, b any, max int) []string {
	if a == nil || b == nil || max <= 0 {
		return nil
	}
	refs := map[uintptr]bool{}
	collectRefs(reflect.ValueOf(a), refs, map[uintptr]bool{})
	if len(refs) == 0 {
		return nil
	}
	root := reflect.TypeOf(b)
	for root.Kind() == reflect.Pointer && root.Name() == "" {
		root = root.Elem()
	}
	f := &sharedFinder{refs: refs, seen: map[uintptr]bool{}, max: max}
	f.walk(reflect.ValueOf(b), root.String(), true)
	return f.found
}

// refOf is the address v refers to that a copy must not share, or 0.
func refOf(v reflect.Value) uintptr {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() || v.Type().Elem().Size() == 0 {
			return 0
		}
		return v.Pointer()
	case reflect.Map:
		if v.IsNil() {
			return 0
		}
		return v.Pointer()
	case reflect.Slice:
		if v.IsNil() || v.Cap() == 0 || v.Type().Elem().Size() == 0 {
			return 0
		}
		return v.Pointer()
	}
	return 0
}

// collectRefs adds every reference reachable from v to refs; seen stops cycles.
func collectRefs(v reflect.Value, refs, seen map[uintptr]bool) {
	if r := refOf(v); r != 0 {
		refs[r] = true
		if seen[r] && v.Kind() != reflect.Slice {
			return
		}
		seen[r] = true
	}
	switch v.Kind() {
	case reflect.Interface, reflect.Pointer:
		if !v.IsNil() {
			collectRefs(v.Elem(), refs, seen)
		}
	case reflect.Map:
		for it := v.MapRange(); it.Next(); {
			collectRefs(it.Key(), refs, seen)
			collectRefs(it.Value(), refs, seen)
		}
	case reflect.Slice, reflect.Array:
		if !MayHoldPointer(v.Type().Elem()) {
			return
		}
		for i := range v.Len() {
			collectRefs(v.Index(i), refs, seen)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			collectRefs(v.Field(i), refs, seen)
		}
	}
}

type sharedFinder struct {
	refs  map[uintptr]bool
	seen  map[uintptr]bool
	found []string
	max   int
}

// walk looks for the references of v in f.refs; top is b itself, whose own pointer is
// the receiver checkClone already compared.
func (f *sharedFinder) walk(v reflect.Value, path string, top bool) {
	if len(f.found) >= f.max {
		return
	}
	if r := refOf(v); r != 0 {
		if f.refs[r] && !top {
			f.found = append(f.found, path)
			return // what lies below is shared with it
		}
		if f.seen[r] && v.Kind() != reflect.Slice {
			return
		}
		f.seen[r] = true
	}
	switch v.Kind() {
	case reflect.Interface:
		if !v.IsNil() {
			f.walk(v.Elem(), path+".("+v.Elem().Type().String()+")", false)
		}
	case reflect.Pointer:
		if !v.IsNil() {
			f.walk(v.Elem(), path, false)
		}
	case reflect.Map:
		for it := v.MapRange(); it.Next(); {
			f.walk(it.Value(), path+"["+formatKey(it.Key())+"]", false)
		}
	case reflect.Slice, reflect.Array:
		if !MayHoldPointer(v.Type().Elem()) {
			return
		}
		for i := range v.Len() {
			f.walk(v.Index(i), fmt.Sprintf("%s[%d]", path, i), false)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			f.walk(v.Field(i), path+"."+v.Type().Field(i).Name, false)
		}
	}
}

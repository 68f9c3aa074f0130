package snapshot

import (
	"cmp"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/mitchellh/copystructure"
)

// The checks find, before any exploration, the values the fallbacks would copy or hash
// wrongly. Most problems are visible in a type (an unexported field, a func); a type
// check runs once per type and is cached. What a type cannot show — the dynamic values
// inside interfaces, cycles, two references to one pointer — needs a walk of the value,
// which runs only for types that can hold such things.

// CopyError says why a value cannot be copied or fingerprinted faithfully, in one line.
type CopyError struct {
	// Path is where the problem is: the value's type without its pointers, then fields
	// (.f), elements and map values ([3], ["k"], or [*] when found in the type), map
	// keys ({key}) and the dynamic types of interfaces (.(T)), e.g.
	// "register.Replica.acks" or "register.Replica.Log[2].(*register.entry).term".
	Path string
	// Problem says what is wrong there.
	Problem string
	// Fix says what to do about it.
	Fix string
}

// Error returns "snapshot: <path>: <problem> — <fix>".
func (e *CopyError) Error() string {
	return "snapshot: " + e.Path + ": " + e.Problem + " — " + e.Fix
}

// purpose says what a check is for.
type purpose uint8

const (
	forCopy purpose = iota // the copystructure fallback
	forHash                // the hash walker
)

// issue is a problem found in a type, relative to that type.
type issue struct {
	path    string // relative to the type: "", ".f", "[*]", ...
	problem string
	fix     string // completed with the root's type name: fmt verb %s
}

// typeInfo is the cached verdict on one type for one purpose and mode.
type typeInfo struct {
	issue *issue // the first problem, in field order; nil if none
	// walk says whether values must be walked too: they hold interfaces, or (for
	// copying) may hold cycles or two references to one pointer or map.
	walk bool
	// plain says that values hold no reference and no interface: a value walk skips them.
	plain bool
}

type infoKey struct {
	t          reflect.Type
	purpose    purpose
	reflective bool
}

var typeInfos sync.Map // infoKey → *typeInfo

// The problems, and what to do about them (%s is the checked value's type).
var (
	issueUnexported = issue{problem: "unexported field; copystructure cannot copy it",
		fix: "give %s a Clone() model.Actor method or export the field"}
	issueFunc = issue{problem: "func; copystructure would share it and what it captures",
		fix: "give %s a Clone() model.Actor method or remove the func from the state"}
	issueChan = issue{problem: "channel; copystructure would share it",
		fix: "give %s a Clone() model.Actor method or remove the channel from the state"}
	issueUnsafe = issue{problem: "unsafe.Pointer; copystructure cannot copy it",
		fix: "give %s a Clone() model.Actor method or remove it from the state"}
	issueShallow = issue{problem: `copy:"shallow" tag; the copy would share it`,
		fix: "give %s a Clone() model.Actor method or drop the tag"}
	issueIgnore = issue{problem: `copy:"ignore" tag; the copy would lose it`,
		fix: "give %s a Clone() model.Actor method or drop the tag"}
	issueKeyPointer = issue{problem: "map key holds a pointer; copystructure copies keys, so the copy's keys would be other pointers",
		fix: "give %s a Clone() model.Actor method or key the map by value"}
	issueCycle = issue{problem: "cycle back to an enclosing value; copystructure would recurse forever",
		fix: "give %s a Clone() model.Actor method or break the cycle (refer by ID or index)"}
	issueAlias = issue{problem: "same %s as %s; copystructure would copy it twice and the copies would not share it",
		fix: "give %s a Clone() model.Actor method or keep a single reference (refer by ID or index)"}
	issueSliceAlias = issue{problem: "shares a backing array with %s; copystructure would copy the two apart, and a change through one would no longer show through the other",
		fix: "give %s a Clone() model.Actor method or keep one slice and an index into it"}
	issueNilInIface = issue{problem: "interface holding a nil %s; copystructure would make it a nil interface",
		fix: "give %s a Clone() model.Actor method or store a nil interface instead"}
	issuePtrToNil = issue{problem: "pointer to a nil pointer; copystructure panics on it",
		fix: "give %s a Clone() model.Actor method or drop a level of pointers"}
	issueNoHash = issue{problem: "%s; it has no value to fingerprint",
		fix: "give %s a HashState(*model.Hasher) method that leaves it out, or remove it from the state"}
)

// infoOf returns the cached verdict on t.
func infoOf(t reflect.Type, p purpose, reflective bool) *typeInfo {
	k := infoKey{t, p, reflective}
	if v, ok := typeInfos.Load(k); ok {
		return v.(*typeInfo)
	}
	c := &typeChecker{purpose: p, reflective: reflective, onPath: map[reflect.Type]bool{}, memo: map[reflect.Type]summary{}}
	s := c.visit(t, "")
	refs := s.refs
	if t.Kind() == reflect.Pointer && refs > 0 {
		refs-- // the value's own pointer cannot be shared with anything inside but by a cycle
	}
	info := &typeInfo{issue: c.issue, plain: s.refs == 0 && !s.dynamic}
	if p == forCopy {
		// Two slices may share a backing array, which only their values show.
		info.plain = info.plain && s.slices == 0
		info.walk = s.dynamic || c.recursive || refs >= 2 || s.slices >= 2
	} else {
		info.walk = s.dynamic
	}
	v, _ := typeInfos.LoadOrStore(k, info)
	return v.(*typeInfo)
}

// summary is what a type check learns about a type's values.
type summary struct {
	refs    int  // pointers and maps a value may hold, up to 3 ("many")
	slices  int  // slices a value may hold, up to 3 ("many")
	dynamic bool // holds an interface or a pointer to a pointer, which only values show
}

type typeChecker struct {
	purpose    purpose
	reflective bool
	onPath     map[reflect.Type]bool
	memo       map[reflect.Type]summary
	recursive  bool
	issue      *issue
}

func (c *typeChecker) fail(path string, is issue, args ...any) {
	if c.issue == nil {
		is.path = path
		if len(args) > 0 {
			is.problem = fmt.Sprintf(is.problem, args...)
		}
		c.issue = &is
	}
}

// trusted reports whether values of t are handled by something other than the walk: a
// copier registered with copystructure (time.Time), or a HashState method.
func trusted(t reflect.Type, p purpose, reflective bool) bool {
	if p == forCopy {
		_, ok := copystructure.Copiers[t]
		return ok
	}
	return !reflective && t.Kind() != reflect.Pointer && t.Kind() != reflect.Interface &&
		reflect.PointerTo(t).Implements(stateHasherType)
}

// visit checks t, found at path, and summarises its values.
func (c *typeChecker) visit(t reflect.Type, path string) summary {
	if c.issue != nil || trusted(t, c.purpose, c.reflective) {
		return summary{}
	}
	if c.onPath[t] {
		c.recursive = true
		return summary{refs: 2}
	}
	if s, ok := c.memo[t]; ok {
		return s
	}
	c.onPath[t] = true
	defer delete(c.onPath, t)
	var s summary
	switch t.Kind() {
	case reflect.Func, reflect.Chan, reflect.UnsafePointer:
		if c.purpose == forHash {
			c.fail(path, issueNoHash, t.String())
		} else {
			c.fail(path, map[reflect.Kind]issue{reflect.Func: issueFunc, reflect.Chan: issueChan,
				reflect.UnsafePointer: issueUnsafe}[t.Kind()])
		}
	case reflect.Interface:
		s.dynamic = true
	case reflect.Pointer:
		s = c.visit(t.Elem(), path)
		s.refs++
		s.dynamic = s.dynamic || t.Elem().Kind() == reflect.Pointer
	case reflect.Map:
		if c.purpose == forCopy && holdsPointer(t.Key()) {
			c.fail(path, issueKeyPointer)
		}
		k, v := c.visit(t.Key(), path+"{key}"), c.visit(t.Elem(), path+"[*]")
		s = summary{refs: 1 + 2*(k.refs+v.refs), slices: 2 * (k.slices + v.slices), dynamic: k.dynamic || v.dynamic}
	case reflect.Slice:
		s = c.visit(t.Elem(), path+"[*]")
		s.refs *= 2
		s.slices = 1 + 2*s.slices
	case reflect.Array:
		if t.Len() > 0 {
			s = c.visit(t.Elem(), path+"[*]")
			if t.Len() > 1 {
				s.refs *= 2
				s.slices *= 2
			}
		}
	case reflect.Struct:
		for i := range t.NumField() {
			f := t.Field(i)
			if f.Type.Size() == 0 {
				continue // holds nothing, so nothing is lost or shared
			}
			fpath := path + "." + f.Name
			if c.purpose == forCopy {
				switch {
				case !f.IsExported():
					c.fail(fpath, issueUnexported)
				case f.Tag.Get("copy") == "shallow":
					c.fail(fpath, issueShallow)
				case f.Tag.Get("copy") == "ignore":
					c.fail(fpath, issueIgnore)
				}
			}
			fs := c.visit(f.Type, fpath)
			s.refs += fs.refs
			s.slices += fs.slices
			s.dynamic = s.dynamic || fs.dynamic
		}
	}
	s.refs, s.slices = min(s.refs, 3), min(s.slices, 3)
	c.memo[t] = s
	return s
}

// holdsPointer reports whether a value of t holds a pointer (in the static type; an
// interface is checked on values).
func holdsPointer(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Pointer, reflect.UnsafePointer, reflect.Chan, reflect.Func, reflect.Map, reflect.Slice:
		return true
	case reflect.Array:
		return t.Len() > 0 && holdsPointer(t.Elem())
	case reflect.Struct:
		for i := range t.NumField() {
			if holdsPointer(t.Field(i).Type) {
				return true
			}
		}
	}
	return false
}

// MayHoldPointer reports whether a value of type t may reach memory that a copy of the
// value shares with the original: t holds a pointer, map, slice, channel, func or
// unsafe.Pointer, or an interface (whose dynamic value may). A value of any other type
// copies fully by assignment. A nil t (the type of a nil interface) holds nothing.
func MayHoldPointer(t reflect.Type) bool {
	if t == nil {
		return false
	}
	switch t.Kind() {
	case reflect.Interface:
		return true
	case reflect.Array:
		return t.Len() > 0 && MayHoldPointer(t.Elem())
	case reflect.Struct:
		for i := range t.NumField() {
			if MayHoldPointer(t.Field(i).Type) {
				return true
			}
		}
		return false
	}
	return holdsPointer(t)
}

// holdsPointerValue reports whether v holds a pointer, looking inside interfaces.
func holdsPointerValue(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Interface:
		return !v.IsNil() && holdsPointerValue(v.Elem())
	case reflect.Array:
		for i := range v.Len() {
			if holdsPointerValue(v.Index(i)) {
				return true
			}
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if holdsPointerValue(v.Field(i)) {
				return true
			}
		}
	default:
		return holdsPointer(v.Type())
	}
	return false
}

// check returns the first problem with copying (or hashing) v, or nil.
func check(v any, p purpose, reflective bool) error {
	if v == nil {
		return nil
	}
	rv := reflect.ValueOf(v)
	t := rv.Type()
	root := t
	for root.Kind() == reflect.Pointer && root.Name() == "" {
		root = root.Elem()
	}
	info := infoOf(t, p, reflective)
	if info.issue != nil {
		return newError(root.String(), info.issue, t)
	}
	if !info.walk {
		return nil
	}
	w := &valueChecker{purpose: p, reflective: reflective, root: root.String(), top: t,
		seen: map[refKey]bool{}, onPath: map[refKey]bool{}}
	return w.walk(rv)
}

func newError(prefix string, is *issue, top reflect.Type) error {
	return &CopyError{Path: prefix + is.path, Problem: is.problem, Fix: fixFor(is.fix, top)}
}

// fixFor completes fix, "give %s a M method or X", for the checked value's type top,
// when top can take a method: a type that is unnamed (func(), chan int) or of the
// standard library (*errors.errorString) cannot, and then it advises what the user can
// do instead: the fix's other half for an unnamed type, and for a standard library's to
// hold a value of their own.
func fixFor(fix string, top reflect.Type) string {
	base := top
	if base.Kind() == reflect.Pointer && base.Name() == "" {
		base = base.Elem()
	}
	own := base.Name() != "" && base.Kind() != reflect.Interface && !standardPkg(base.PkgPath())
	if own {
		return fmt.Sprintf(fix, top)
	}
	if _, rest, ok := strings.Cut(fix, " or "); ok && base.PkgPath() == "" && base.Name() == "" {
		return rest // an unnamed type of the user's: the fix is theirs to make
	}
	if strings.Contains(fix, "Clone()") {
		return fmt.Sprintf("%s is not a type Ravel can copy by reflection, nor one you can give a method: copy it in the Clone() model.Actor method of the actor that holds it, or hold a value of your own instead (for an error, its text: err.Error())", top)
	}
	return fmt.Sprintf("%s cannot be given a method: leave it out in the HashState(*model.Hasher) method of the type of yours that holds it, or hold a value without it", top)
}

// standardPkg reports whether a package path is of Go's standard library (no dot in its
// first element), whose types cannot be given methods.
func standardPkg(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return path != "" && !strings.Contains(first, ".")
}

// refKey identifies a reference for cycles and sharing: the type tells a pointer to a
// struct from a pointer to its first field, and n a slice from its prefixes.
type refKey struct {
	addr uintptr
	n    int
	t    reflect.Type
}

// valueChecker walks a value for what its type cannot show.
type valueChecker struct {
	purpose    purpose
	reflective bool
	root       string       // the path's first element
	top        reflect.Type // the checked value's type, for the fix
	segs       []seg        // the path below root
	seen       map[refKey]bool
	onPath     map[refKey]bool
	// find, when set, makes the walk look for the first path to that reference; it
	// stops with found set.
	find  *refKey
	found string
	skip  int // matches of find to pass before the one wanted (slices only)
	// spans are the backing arrays of the slices met, for copying: two that overlap
	// are one array, which copystructure would copy twice.
	spans []span
}

// span is the memory from a slice's first element to the end of its capacity.
type span struct {
	start, end uintptr
	r          refKey
}

// seg is one step of a path, formatted only when a problem is reported.
type seg struct {
	field string        // ".f", "{key}" or ".(T)", when not an index or a key
	index int           // for an element, when field and key are empty
	key   reflect.Value // for a map value
}

func (w *valueChecker) path() string {
	var b strings.Builder
	b.WriteString(w.root)
	for _, s := range w.segs {
		switch {
		case s.field != "":
			b.WriteString(s.field)
		case s.key.IsValid():
			b.WriteString("[" + formatKey(s.key) + "]")
		default:
			fmt.Fprintf(&b, "[%d]", s.index)
		}
	}
	return b.String()
}

// formatKey formats a map key for a path, as Go would write a string or print anything else.
func formatKey(k reflect.Value) string {
	var v any = k // fmt prints a reflect.Value's contents, if not always as %v would
	if k.CanInterface() {
		v = k.Interface()
	}
	if k.Kind() == reflect.String {
		return fmt.Sprintf("%q", v)
	}
	return fmt.Sprintf("%v", v)
}

func (w *valueChecker) fail(is issue, args ...any) error {
	if len(args) > 0 {
		is.problem = fmt.Sprintf(is.problem, args...)
	}
	return newError(w.path(), &is, w.top)
}

func (w *valueChecker) push(s seg) { w.segs = append(w.segs, s) }
func (w *valueChecker) pop()       { w.segs = w.segs[:len(w.segs)-1] }

// errFound stops a walk that looks for a path.
var errFound = fmt.Errorf("found")

// track records reference r on the way down; it reports cycles, and, for copying,
// sharing. The caller calls untrack(r) on the way up when track returns nil.
func (w *valueChecker) track(r refKey, what string, root reflect.Value) error {
	if w.find != nil {
		if *w.find == r {
			w.found = w.path()
			return errFound
		}
	}
	if w.onPath[r] {
		if w.purpose == forHash {
			return errStop // the hash walk closes cycles itself; do not loop here
		}
		return w.fail(issueCycle)
	}
	if w.seen[r] && w.purpose == forCopy && w.find == nil {
		first := &valueChecker{purpose: w.purpose, reflective: w.reflective, root: w.root, top: w.top,
			seen: map[refKey]bool{}, onPath: map[refKey]bool{}, find: &r}
		first.walk(root)
		return w.fail(issueAlias, what, first.found)
	}
	w.seen[r] = true
	w.onPath[r] = true
	return nil
}

func (w *valueChecker) untrack(r refKey) { delete(w.onPath, r) }

// errStop ends a branch of the walk without a problem.
var errStop = fmt.Errorf("stop")

// walk checks the value the walk started from.
func (w *valueChecker) walk(rv reflect.Value) error {
	err := w.value(rv, rv)
	if err == errStop || err == errFound {
		return nil
	}
	if err == nil && len(w.spans) > 1 {
		return w.sharedArrays(rv)
	}
	return err
}

// sharedArrays reports two slices met in root whose backing arrays overlap, naming both.
func (w *valueChecker) sharedArrays(root reflect.Value) error {
	slices.SortStableFunc(w.spans, func(a, b span) int { return cmp.Compare(a.start, b.start) })
	widest := 0
	for i := 1; i < len(w.spans); i++ {
		if a, b := w.spans[widest].r, w.spans[i].r; w.spans[i].start < w.spans[widest].end {
			skip := 0
			if a == b { // one slice twice: the second place it is met
				skip = 1
			}
			return newError(w.pathTo(root, b, skip), &issue{
				problem: fmt.Sprintf(issueSliceAlias.problem, w.pathTo(root, a, 0)),
				fix:     issueSliceAlias.fix}, w.top)
		}
		if w.spans[i].end > w.spans[widest].end {
			widest = i
		}
	}
	return nil
}

// pathTo is the path in root to slice r, past the first skip of them.
func (w *valueChecker) pathTo(root reflect.Value, r refKey, skip int) string {
	first := &valueChecker{purpose: w.purpose, reflective: w.reflective, root: w.root, top: w.top,
		seen: map[refKey]bool{}, onPath: map[refKey]bool{}, find: &r, skip: skip}
	first.walk(root)
	return first.found
}

// value checks v; root is the whole value, for finding the first path to a shared reference.
func (w *valueChecker) value(v, root reflect.Value) error {
	t := v.Type()
	if trusted(t, w.purpose, w.reflective) {
		return nil
	}
	if info := infoOf(t, w.purpose, w.reflective); info.plain {
		return nil
	}
	switch v.Kind() {
	case reflect.Interface:
		if v.IsNil() {
			return nil
		}
		e := v.Elem()
		w.push(seg{field: ".(" + e.Type().String() + ")"})
		defer w.pop()
		if info := infoOf(e.Type(), w.purpose, w.reflective); info.issue != nil {
			return newError(w.path(), info.issue, w.top)
		}
		if w.purpose == forCopy && e.Kind() == reflect.Pointer && e.IsNil() {
			return w.fail(issueNilInIface, e.Type())
		}
		return w.value(e, root)
	case reflect.Pointer:
		if v.IsNil() || t.Elem().Size() == 0 {
			return nil // zero-size values may share an address without sharing anything
		}
		if w.purpose == forCopy && t.Elem().Kind() == reflect.Pointer && v.Elem().IsNil() {
			return w.fail(issuePtrToNil)
		}
		r := refKey{addr: v.Pointer(), t: t}
		if err := w.track(r, "pointer", root); err != nil {
			return ignoreStop(err)
		}
		defer w.untrack(r)
		return w.value(v.Elem(), root)
	case reflect.Map:
		if v.IsNil() {
			return nil
		}
		r := refKey{addr: v.Pointer(), t: t}
		if err := w.track(r, "map", root); err != nil {
			return ignoreStop(err)
		}
		defer w.untrack(r)
		for it := v.MapRange(); it.Next(); {
			k := it.Key()
			if w.purpose == forCopy && holdsPointerValue(k) {
				w.push(seg{key: k})
				err := w.fail(issueKeyPointer)
				w.pop()
				return err
			}
			w.push(seg{field: "{key}"})
			err := w.value(k, root)
			w.pop()
			if err != nil {
				return err
			}
			w.push(seg{key: k})
			err = w.value(it.Value(), root)
			w.pop()
			if err != nil {
				return err
			}
		}
	case reflect.Slice:
		if v.IsNil() {
			return nil
		}
		// Slices can form cycles, and share a backing array (walk checks the spans).
		r := refKey{addr: v.Pointer(), n: v.Len(), t: t}
		if w.find != nil && *w.find == r {
			if w.skip == 0 {
				w.found = w.path()
				return errFound
			}
			w.skip--
		}
		if size := t.Elem().Size(); w.purpose == forCopy && w.find == nil && size > 0 && v.Cap() > 0 {
			w.spans = append(w.spans, span{start: v.Pointer(), end: v.Pointer() + uintptr(v.Cap())*size, r: r})
		}
		if w.onPath[r] {
			if w.purpose == forHash {
				return nil
			}
			return w.fail(issueCycle)
		}
		if infoOf(t.Elem(), w.purpose, w.reflective).plain {
			return nil // its elements hold nothing to check
		}
		w.onPath[r] = true
		defer w.untrack(r)
		return w.elems(v, root)
	case reflect.Array:
		return w.elems(v, root)
	case reflect.Struct:
		for i := range v.NumField() {
			f := t.Field(i)
			if f.Type.Size() == 0 {
				continue
			}
			w.push(seg{field: "." + f.Name})
			err := w.value(v.Field(i), root)
			w.pop()
			if err != nil {
				return err
			}
		}
	}
	return nil
}

func (w *valueChecker) elems(v, root reflect.Value) error {
	for i := range v.Len() {
		w.push(seg{index: i})
		err := w.value(v.Index(i), root)
		w.pop()
		if err != nil {
			return err
		}
	}
	return nil
}

// ignoreStop turns the end of a branch into success, and passes problems on.
func ignoreStop(err error) error {
	if err == errStop {
		return nil
	}
	return err
}

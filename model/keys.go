package model

import (
	"reflect"
)

// Keys declares, for key-aware strategies (DS2's LiViola), where each message type
// carries the key it acts on, and which types are excluded from interleaving.
//
// An exclusion is the system author's claim that receiving such a message neither
// changes the receiver's state, nor causes messages that do, nor changes what a client
// observes; a wrong exclusion hides bugs (DS2 §4.8.5), so Ravel reports runs that used
// exclusions. A type with no declaration has an unknown key, which matches every key.
type Keys struct {
	rules map[reflect.Type]keyRule
}

type keyRule struct {
	key     func(any) string
	exclude bool
}

// NewKeys returns an empty declaration.
func NewKeys() *Keys { return &Keys{rules: make(map[reflect.Type]keyRule)} }

// Key declares that messages of type M act on the key key(m), and returns k: a new Keys
// when k is nil. A later Key or Exclude of the same M replaces this declaration.
func Key[M any](k *Keys, key func(M) string) *Keys {
	k = k.ready()
	k.rules[reflect.TypeFor[M]()] = keyRule{key: func(v any) string { return key(v.(M)) }}
	return k
}

// Exclude declares messages of type M non-interfering: independent of every other step.
// It returns k, a new Keys when k is nil. A later Key or Exclude of the same M replaces
// this declaration.
func Exclude[M any](k *Keys) *Keys {
	k = k.ready()
	k.rules[reflect.TypeFor[M]()] = keyRule{exclude: true}
	return k
}

// ready returns k with its map made: a new Keys for nil, the map for a zero Keys.
func (k *Keys) ready() *Keys {
	if k == nil {
		return NewKeys()
	}
	if k.rules == nil {
		k.rules = make(map[reflect.Type]keyRule)
	}
	return k
}

// Of returns the key of msg and whether it is known, and whether msg's type is
// excluded. A nil Keys knows nothing.
func (k *Keys) Of(msg any) (key string, known, excluded bool) {
	if k == nil {
		return "", false, false
	}
	r, ok := k.rules[reflect.TypeOf(msg)]
	switch {
	case !ok:
		return "", false, false
	case r.exclude:
		return "", false, true
	}
	return r.key(msg), true, false
}

// Exclusions is the number of message types declared excluded.
func (k *Keys) Exclusions() int {
	if k == nil {
		return 0
	}
	n := 0
	for _, r := range k.rules {
		if r.exclude {
			n++
		}
	}
	return n
}

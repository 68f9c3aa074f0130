package formats

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// A small reader for the one-line EDN maps of Jepsen-style histories, such as
// {:process 0, :type :invoke, :f :get, :key "1", :value nil}. It knows the subset such
// logs use — a map whose keys are keywords, and values that are nil, booleans, integers,
// decimals, strings, keywords, or vectors, sets and maps of those (Jepsen's :error and
// its nemesis's :value hold them), a tagged value read as the value — and rejects
// anything else with a message saying what it expected at which column.

// ednKind is the type of an EDN value.
type ednKind uint8

const (
	ednNil ednKind = iota
	ednBool
	ednInt
	ednString
	ednKeyword
	ednVector
	ednSet   // #{…}: Items in the order written
	ednMap   // {…} as a value: Items alternate keys and values
	ednFloat // a decimal: Str as written
)

// ednValue is one EDN value. Str holds a string's text, a keyword's name (without the
// colon) or a decimal as written; Int an integer; Bool a boolean; Items a vector's or a
// set's elements, or a map's keys and values in turn.
type ednValue struct {
	Kind  ednKind
	Str   string
	Int   int64
	Bool  bool
	Items []ednValue
}

// String renders v back as EDN, for error messages.
func (v ednValue) String() string {
	switch v.Kind {
	case ednBool:
		return strconv.FormatBool(v.Bool)
	case ednInt:
		return strconv.FormatInt(v.Int, 10)
	case ednString:
		return strconv.Quote(v.Str)
	case ednKeyword:
		return ":" + v.Str
	case ednFloat:
		return v.Str
	case ednVector, ednSet, ednMap:
		parts := make([]string, len(v.Items))
		for i, it := range v.Items {
			parts[i] = it.String()
		}
		switch v.Kind {
		case ednSet:
			return "#{" + strings.Join(parts, " ") + "}"
		case ednMap:
			return "{" + strings.Join(parts, " ") + "}"
		}
		return "[" + strings.Join(parts, " ") + "]"
	default:
		return "nil"
	}
}

// ednEntry is one key and value of a map, in the order written.
type ednEntry struct {
	Key   string // the keyword's name, without the colon
	Value ednValue
}

// ednParser reads one line.
type ednParser struct {
	s   string
	pos int
}

// parseEDNMap parses s, which must hold exactly one map, and returns its entries in the
// order written. A key that appears twice is an error. Errors say what was expected at
// which column (1-based).
func parseEDNMap(s string) ([]ednEntry, error) {
	p := &ednParser{s: s}
	p.space()
	if p.take('#') {
		// A record's tag, #jepsen.history.Op{…}: its fields are the map.
		if p.symbol() == "" {
			return nil, p.expected("a tag name after '#'")
		}
		p.space()
	}
	if !p.take('{') {
		return nil, p.expected("'{' starting a map")
	}
	var entries []ednEntry
	seen := map[string]bool{}
	for {
		p.space()
		if p.take('}') {
			break
		}
		keyAt := p.pos
		key, err := p.value(0)
		if err != nil {
			return nil, err
		}
		if key.Kind != ednKeyword {
			return nil, fmt.Errorf("expected a keyword as map key at column %d, found %s", keyAt+1, key)
		}
		if seen[key.Str] {
			return nil, fmt.Errorf("key :%s appears twice, at column %d", key.Str, keyAt+1)
		}
		seen[key.Str] = true
		p.space()
		if p.pos < len(p.s) && p.s[p.pos] == '}' {
			return nil, p.expected(fmt.Sprintf("a value for :%s", key.Str))
		}
		val, err := p.value(0)
		if err != nil {
			return nil, err
		}
		entries = append(entries, ednEntry{Key: key.Str, Value: val})
	}
	p.space()
	if p.pos != len(p.s) {
		return nil, p.expected("end of line after the map")
	}
	return entries, nil
}

// maxDepth bounds the nesting of vectors, sets, maps and tags, so that a hostile line
// cannot exhaust the stack.
const maxDepth = 32

// value reads one value at the current position.
func (p *ednParser) value(depth int) (ednValue, error) {
	if p.pos >= len(p.s) {
		return ednValue{}, p.expected("a value")
	}
	switch c := p.s[p.pos]; {
	case c == '"':
		return p.str()
	case c == ':':
		p.pos++
		name := p.symbol()
		if name == "" {
			return ednValue{}, p.expected("a keyword name after ':'")
		}
		return ednValue{Kind: ednKeyword, Str: name}, nil
	case c == '[' || c == '{' || c == '#':
		if depth >= maxDepth {
			return ednValue{}, fmt.Errorf("vectors, sets, maps or tags nested more than %d deep at column %d", maxDepth, p.pos+1)
		}
		if c == '#' && !strings.HasPrefix(p.s[p.pos:], "#{") {
			// A tagged value (#jepsen.history.Op{…}, #inst "…"): the value, untagged.
			p.pos++
			if p.symbol() == "" {
				return ednValue{}, p.expected("a tag name or '{' after '#'")
			}
			p.space()
			return p.value(depth + 1)
		}
		kind, end := ednVector, byte(']')
		switch c {
		case '{':
			kind, end = ednMap, '}'
		case '#':
			kind, end = ednSet, '}'
			p.pos++
		}
		p.pos++
		v := ednValue{Kind: kind, Items: []ednValue{}}
		for {
			p.space()
			if p.take(end) {
				if kind == ednMap && len(v.Items)%2 != 0 {
					return ednValue{}, fmt.Errorf("map ending at column %d has a key without a value", p.pos)
				}
				return v, nil
			}
			it, err := p.value(depth + 1)
			if err != nil {
				return ednValue{}, err
			}
			v.Items = append(v.Items, it)
		}
	case c == '-' || c == '+' || ('0' <= c && c <= '9'):
		start := p.pos
		word := p.symbol()
		n, err := strconv.ParseInt(word, 10, 64)
		if err == nil {
			return ednValue{Kind: ednInt, Int: n}, nil
		}
		if _, ferr := strconv.ParseFloat(strings.TrimSuffix(word, "M"), 64); ferr == nil && strings.ContainsAny(word, ".eE") {
			return ednValue{Kind: ednFloat, Str: word}, nil
		}
		p.pos = start
		if errors.Is(err, strconv.ErrRange) {
			return ednValue{}, p.expected("an integer of 64 bits")
		}
		return ednValue{}, p.expected("an integer")
	default:
		start := p.pos
		switch word := p.symbol(); word {
		case "nil":
			return ednValue{Kind: ednNil}, nil
		case "true", "false":
			return ednValue{Kind: ednBool, Bool: word == "true"}, nil
		}
		p.pos = start
		return ednValue{}, p.expected("a value (nil, true, false, a number, a string, a keyword, a vector, a set or a map)")
	}
}

// str reads a string literal with EDN's escapes.
func (p *ednParser) str() (ednValue, error) {
	start := p.pos
	p.pos++ // the opening quote
	var b strings.Builder
	for p.pos < len(p.s) {
		c := p.s[p.pos]
		p.pos++
		switch c {
		case '"':
			return ednValue{Kind: ednString, Str: b.String()}, nil
		case '\\':
			if p.pos >= len(p.s) {
				return ednValue{}, fmt.Errorf("string starting at column %d ends inside an escape", start+1)
			}
			e := p.s[p.pos]
			p.pos++
			switch e {
			case '"', '\\':
				b.WriteByte(e)
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			case 'u':
				if p.pos+4 > len(p.s) {
					return ednValue{}, fmt.Errorf("expected 4 hex digits after \\u at column %d", p.pos+1)
				}
				r, err := strconv.ParseUint(p.s[p.pos:p.pos+4], 16, 32)
				if err != nil {
					return ednValue{}, fmt.Errorf("expected 4 hex digits after \\u at column %d", p.pos+1)
				}
				b.WriteRune(rune(r))
				p.pos += 4
			default:
				return ednValue{}, fmt.Errorf("unknown escape \\%c at column %d", e, p.pos-1)
			}
		default:
			b.WriteByte(c)
		}
	}
	return ednValue{}, fmt.Errorf("string starting at column %d is not closed", start+1)
}

// symbol reads the characters up to the next delimiter.
func (p *ednParser) symbol() string {
	start := p.pos
	for p.pos < len(p.s) && !strings.ContainsRune(" \t\r\n,{}[]()\"", rune(p.s[p.pos])) {
		p.pos++
	}
	return p.s[start:p.pos]
}

// space skips whitespace and commas, which EDN treats as whitespace.
func (p *ednParser) space() {
	for p.pos < len(p.s) && strings.IndexByte(" \t\r\n,", p.s[p.pos]) >= 0 {
		p.pos++
	}
}

// take consumes c if it is next.
func (p *ednParser) take(c byte) bool {
	if p.pos < len(p.s) && p.s[p.pos] == c {
		p.pos++
		return true
	}
	return false
}

// expected reports that what was wanted is missing at the current position.
func (p *ednParser) expected(what string) error {
	if p.pos >= len(p.s) {
		return fmt.Errorf("expected %s at column %d, found end of line", what, p.pos+1)
	}
	rest := p.s[p.pos:]
	if len(rest) > 20 {
		rest = rest[:20] + "…"
	}
	return fmt.Errorf("expected %s at column %d, found %q", what, p.pos+1, rest)
}

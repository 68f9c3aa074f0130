package formats

import (
	"fmt"
	"strconv"
	"strings"
)

// A small reader for the one-line EDN maps of Jepsen-style histories, such as
// {:process 0, :type :invoke, :f :get, :key "1", :value nil}. It knows the subset such
// logs use — maps whose keys are keywords, and values that are nil, booleans, integers,
// strings, keywords or vectors of those — and rejects anything else with a message
// saying what it expected at which column.

// ednKind is the type of an EDN value.
type ednKind uint8

const (
	ednNil ednKind = iota
	ednBool
	ednInt
	ednString
	ednKeyword
	ednVector
)

// ednValue is one EDN value. Str holds a string's text or a keyword's name (without the
// colon); Int an integer; Bool a boolean; Items a vector's elements.
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
	case ednVector:
		parts := make([]string, len(v.Items))
		for i, it := range v.Items {
			parts[i] = it.String()
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

// maxDepth bounds vector nesting, so that a hostile line cannot exhaust the stack.
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
	case c == '[':
		if depth >= maxDepth {
			return ednValue{}, fmt.Errorf("vectors nested more than %d deep at column %d", maxDepth, p.pos+1)
		}
		p.pos++
		v := ednValue{Kind: ednVector, Items: []ednValue{}}
		for {
			p.space()
			if p.take(']') {
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
		if err != nil {
			p.pos = start
			return ednValue{}, p.expected("an integer")
		}
		return ednValue{Kind: ednInt, Int: n}, nil
	default:
		start := p.pos
		switch word := p.symbol(); word {
		case "nil":
			return ednValue{Kind: ednNil}, nil
		case "true", "false":
			return ednValue{Kind: ednBool, Bool: word == "true"}, nil
		}
		p.pos = start
		return ednValue{}, p.expected("a value (nil, true, false, an integer, a string, a keyword or a vector)")
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

package formats

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// utf8BOM is the byte-order mark some editors put at the start of a UTF-8 file; it is
// not part of the first line.
const utf8BOM = "\xef\xbb\xbf"

// lineScanner reads a history line by line, as every reader here does: lines up to
// maxLine bytes, a leading byte-order mark dropped, and a read error reported with the
// line it struck at and, for an overlong line, the limit.
type lineScanner struct {
	sc   *bufio.Scanner
	name string
	line int
}

func newLineScanner(r io.Reader, name string) *lineScanner {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	return &lineScanner{sc: sc, name: name}
}

// Scan advances to the next line.
func (s *lineScanner) Scan() bool {
	if !s.sc.Scan() {
		return false
	}
	s.line++
	return true
}

// Bytes returns the current line, valid until the next Scan.
func (s *lineScanner) Bytes() []byte {
	b := s.sc.Bytes()
	if s.line == 1 {
		b = bytes.TrimPrefix(b, []byte(utf8BOM))
	}
	return b
}

// Text returns the current line.
func (s *lineScanner) Text() string {
	t := s.sc.Text()
	if s.line == 1 {
		t = strings.TrimPrefix(t, utf8BOM)
	}
	return t
}

// Err reports what stopped the scan, at the line it struck at.
func (s *lineScanner) Err() error {
	err := s.sc.Err()
	switch {
	case err == nil:
		return nil
	case errors.Is(err, bufio.ErrTooLong):
		return errorf(s.name, s.line+1, "the line is longer than %d MiB, the most a line may hold: is it a history?", maxLine>>20)
	}
	return fmt.Errorf("%s:%d: reading: %w", s.name, s.line+1, err)
}

// duplicateKey returns a key that appears twice in one object of the JSON text (valid
// JSON, already decoded), compared as encoding/json matches fields: unescaped, without
// regard to case. encoding/json keeps the last of two, silently; a history whose line
// says two things about one field is malformed.
func duplicateKey(text []byte) (string, bool) {
	type frame struct {
		object bool
		keys   []string
	}
	var stack []frame
	expectKey := false
	for i := 0; i < len(text); i++ {
		switch c := text[i]; c {
		case '{':
			stack = append(stack, frame{object: true})
			expectKey = true
		case '[':
			stack = append(stack, frame{})
			expectKey = false
		case '}', ']':
			if len(stack) == 0 {
				return "", false // not the valid JSON this expects
			}
			stack = stack[:len(stack)-1]
			expectKey = false
		case ',':
			expectKey = len(stack) > 0 && stack[len(stack)-1].object
		case '"':
			j := i + 1
			escaped := false
			for ; j < len(text) && text[j] != '"'; j++ {
				if text[j] == '\\' {
					escaped = true
					j++
				}
			}
			if expectKey && len(stack) > 0 {
				key := string(text[i+1 : j])
				if escaped {
					var s string
					if json.Unmarshal(text[i:j+1], &s) == nil {
						key = s
					}
				}
				top := &stack[len(stack)-1]
				for _, k := range top.keys {
					if strings.EqualFold(k, key) {
						return key, true
					}
				}
				top.keys = append(top.keys, key)
				expectKey = false
			}
			i = j
		}
	}
	return "", false
}

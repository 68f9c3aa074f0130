package formats

import "fmt"

// ParseError is a problem at one line of a recorded history.
type ParseError struct {
	// Name is the name the reader was given, usually the file's.
	Name string
	// Line is the 1-based line number.
	Line int
	// Msg says what was expected and what was found.
	Msg string
}

// Error returns "name:line: msg".
func (e *ParseError) Error() string {
	return fmt.Sprintf("%s:%d: %s", e.Name, e.Line, e.Msg)
}

// errorf makes a *ParseError at line of name.
func errorf(name string, line int, format string, args ...any) *ParseError {
	return &ParseError{Name: name, Line: line, Msg: fmt.Sprintf(format, args...)}
}

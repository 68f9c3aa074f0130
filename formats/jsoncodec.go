package formats

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
)

// JSONCodec is the Codec of a specification named spec whose inputs and outputs are
// written as encoding/json writes I and O: an input as its JSON, an output as its JSON
// whatever the input. Reading is strict: a field that I or O does not have is an error,
// not ignored, so a misspelt field is caught; a field left out keeps its zero value, and
// a missing output (an operation that returns nothing) is O's zero value.
//
// It suits inputs and outputs whose exported fields hold all they mean (encoding/json
// neither writes nor reads unexported ones) and that read back equal to what was
// written. A codec written by hand, like RegisterCodec, gives another shape, such as
// {"f":"write","value":1}.
func JSONCodec[I, O any](spec string) Codec[I, O] {
	return Codec[I, O]{
		Spec:         spec,
		EncodeInput:  func(in I) any { return in },
		EncodeOutput: func(_ I, out O) any { return out },
		DecodeInput: func(raw json.RawMessage) (I, error) {
			var in I
			return in, decodeStrict(raw, &in)
		},
		DecodeOutput: func(_ I, raw json.RawMessage) (O, error) {
			var out O
			if raw == nil {
				return out, nil
			}
			return out, decodeStrict(raw, &out)
		},
	}
}

// decodeStrict reads one JSON value into v, refusing fields v does not have.
func decodeStrict(raw json.RawMessage, v any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		// v is a pointer: name what it points to, a type of the user's specification.
		return fmt.Errorf("expected the JSON of a %s: %s", reflect.TypeOf(v).Elem(), jsonProblem(err))
	}
	return nil
}

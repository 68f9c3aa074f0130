package explorer

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/ravelmc/ravel/model"
)

// DescribeMessage renders a message for people: its String method when it has one,
// otherwise its type name without the package and its fields, "WriteReplica{Val:1}". A
// String method that panics is a bug in it, which the report shows and survives: the
// message is rendered as fmt renders it, "%!v(PANIC=String method: …)".
func DescribeMessage(msg any) string {
	if s, ok := msg.(fmt.Stringer); ok {
		return safeString(s)
	}
	t := fmt.Sprintf("%T", msg)
	t = strings.TrimPrefix(t, "*")
	if i := strings.LastIndexByte(t, '.'); i >= 0 {
		t = t[i+1:]
	}
	v := fmt.Sprintf("%+v", msg)
	v = strings.TrimPrefix(v, "&")
	if strings.HasPrefix(v, "{") {
		return t + v
	}
	return t + "(" + v + ")"
}

// DescribeActor renders an actor's state for people: its String method when it has one,
// otherwise its fields, "{Value:1 Version:2}" — without the "&" of a pointer, which says
// nothing about the state. A String method that panics is rendered as DescribeMessage
// renders one.
func DescribeActor(a model.Actor) string {
	if s, ok := a.(fmt.Stringer); ok {
		return safeString(s)
	}
	return strings.TrimPrefix(fmt.Sprintf("%+v", a), "&")
}

// safeString is s.String(), or what fmt's %v prints when that panics: "<nil>" for a nil
// pointer, otherwise "%!v(PANIC=String method: …)" with the panic's value.
func safeString(s fmt.Stringer) (text string) {
	defer func() {
		if v := recover(); v != nil {
			if rv := reflect.ValueOf(s); rv.Kind() == reflect.Pointer && rv.IsNil() {
				text = "<nil>"
				return
			}
			text = fmt.Sprintf("%%!v(PANIC=String method: %v)", v)
		}
	}()
	return s.String()
}

// DescribeMessageOf renders a message of sys as DescribeMessage does, except a client's
// request, whose input it renders with the specification's DescribeInput,
// "Request{c0.0 Enq(1)}": a user's input type seldom has a String method of its own, and
// its fields ("{0 1}") say little. sys may be nil.
func DescribeMessageOf(sys *model.System, msg any) string {
	if id, in, ok := model.RequestOf(msg); ok && sys != nil && sys.Harness != nil {
		if spec := sys.Harness.Spec(); spec.IsInput != nil && spec.IsInput(in) {
			return "Request{" + id.String() + " " + spec.DescribeInput(in) + "}"
		}
	}
	return DescribeMessage(msg)
}

// DescribeDelivery renders step i (from 1) of a schedule as one line:
// "  7  n0 → n1  WriteReplica{req:c0.0 ver:1 val:1}".
func DescribeDelivery(sys *model.System, i int, d Delivery) string {
	if d.Kind.IsFault() {
		return fmt.Sprintf("%4d  %s", i, DescribeFault(sys, d))
	}
	what := DescribeMessageOf(sys, d.Msg)
	if d.Timer != "" {
		what = "timer " + strconv.Quote(d.Timer) + " " + what
	}
	return fmt.Sprintf("%4d  %s → %s  %s", i, sys.ActorName(d.From), sys.ActorName(d.To), what)
}

// DescribeSchedule renders a schedule, one delivery a line.
func DescribeSchedule(sys *model.System, steps []Delivery) string {
	var b strings.Builder
	for i, d := range steps {
		b.WriteString(DescribeDelivery(sys, i+1, d))
		b.WriteByte('\n')
	}
	return b.String()
}

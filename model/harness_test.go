package model_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/specs"
)

// TestOnePerOperation: operation k becomes client k, alone, against actor k mod n.
func TestOnePerOperation(t *testing.T) {
	ops := []specs.RegisterInput{specs.Write(1), specs.Read(), specs.Write(2), specs.Read()}
	h := model.OnePerOperation(specs.Register(), 3, ops)
	if got, want := h.NumClients(), len(ops); got != want {
		t.Fatalf("NumClients = %d, want %d", got, want)
	}
	for k, op := range ops {
		if got, want := h.Target(k), model.ID(k%3); got != want {
			t.Errorf("client %d: target %v, want %v", k, got, want)
		}
		if got := h.Ops(k); got != 1 {
			t.Errorf("client %d: %d operations, want 1", k, got)
		}
		if got := h.Input(k, 0); got != op {
			t.Errorf("client %d: input %v, want %v", k, got, op)
		}
	}
}

func TestNamedOperations(t *testing.T) {
	table := map[string][]int{"a": {1}, "b": {2, 3}}
	names := []string{"b", "a"}
	if ops, err := model.NamedOperations(table, names, "b"); err != nil || len(ops) != 2 {
		t.Errorf("b: %v, %v", ops, err)
	}
	_, err := model.NamedOperations(table, names, "c")
	if err == nil || !strings.Contains(err.Error(), `unknown harness "c" (valid: b, a)`) {
		t.Errorf("c: error %v, want one naming the valid harnesses in order", err)
	}
}

// TestInsertByRequest: inserting in any order gives c0's requests first, each client's
// by sequence number — the order of RequestID.Before.
func TestInsertByRequest(t *testing.T) {
	c0, c1 := model.ClientID(0), model.ClientID(1)
	want := []model.RequestID{{Client: c0, Seq: 0}, {Client: c0, Seq: 1}, {Client: c1, Seq: 0}, {Client: c1, Seq: 2}}
	for _, order := range [][]int{{0, 1, 2, 3}, {3, 2, 1, 0}, {2, 0, 3, 1}} {
		var s []model.RequestID
		for _, i := range order {
			s = model.InsertByRequest(s, want[i], func(r model.RequestID) model.RequestID { return r })
		}
		if !slices.Equal(s, want) {
			t.Errorf("inserting in order %v: %v, want %v", order, s, want)
		}
	}
}

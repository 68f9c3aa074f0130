// Command ravel checks distributed systems written as Go actors for linearizability by
// exploring the orders in which their messages can be delivered: the command line of
// package ravelcli over the systems Ravel ships, with the taPCT-style commutativity marks
// of docs/dependence.md registered as the dependence relation "marks", the way a user
// registers one of their own.
//
//	ravel list
//	ravel check SYSTEM [flags]
//	ravel replay FILE
//	ravel bench [flags]
//	ravel deps [flags]
//	ravel explore SYSTEM [--port N]
//
// Exit status: 0 when no violation was found, 1 when one was, 2 on bad usage or input,
// 130 when interrupted (SIGINT or SIGTERM) before finding anything.
package main

import (
	"github.com/ravelmc/ravel/depbench"
	"github.com/ravelmc/ravel/ravelcli"
)

func main() {
	ravelcli.Main(ravelcli.Builtins(), ravelcli.Dependence(depbench.MarksName, depbench.MarksDoc, depbench.NewShippedMarks))
}

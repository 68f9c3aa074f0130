package report

import (
	"fmt"

	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/model"
)

// Unanswered is the caveat ravel check and raveltest give when the search's histories
// leave operations unanswered: none answered in any schedule (every history all open,
// which any specification accepts: nothing was checked), some operations answered in no
// schedule, or every schedule ending with one unanswered (when not every one was cut at
// the depth budget, which the status line says). It names the request type the
// actors were sent, the one their handlers must match. "" when every operation was
// answered in some schedule and some schedule answered all of them, or when nothing was
// explored.
func Unanswered(h *model.Harness, st explorer.Stats) string {
	if st.Schedules == 0 || h == nil {
		return ""
	}
	sent := fmt.Sprintf("the actors were sent %s: a handler must match exactly that type and answer it with ctx.Respond", h.RequestType())
	ops := int64(h.NumOps())
	switch {
	case st.Answered == 0:
		return fmt.Sprintf("no operation was answered in any of the %s explored: every history was all open, which any specification accepts, so nothing was checked; %s",
			Count(st.Schedules, "schedule"), sent)
	case st.Answered < ops:
		were := "were"
		if ops-st.Answered == 1 {
			were = "was"
		}
		return fmt.Sprintf("%s of the harness's %d %s answered in none of the %s explored (a handler that ignores them, faults or budgets that stop short of them); %s",
			Count(ops-st.Answered, "operation"), ops, were, Count(st.Schedules, "schedule"), sent)
	case st.Incomplete == st.Schedules && st.Cut < st.Schedules:
		// Schedules cut at the depth budget are said to be so already.
		return fmt.Sprintf("every one of the %s explored ended with an operation unanswered (faults, a depth budget, or a handler that does not answer); %s",
			Count(st.Schedules, "schedule"), sent)
	}
	return ""
}

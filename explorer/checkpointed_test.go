package explorer_test

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/systems/register"
)

// TestResultCheckpointed: Result.Checkpointed says whether the checkpoint directory holds
// a checkpoint of the search: not without checkpoints, yes once one was taken, yes on a
// resume; and OnResume is called once the resume has succeeded, with the checkpoint's
// figures, before the search goes on.
func TestResultCheckpointed(t *testing.T) {
	sys, err := register.New(2, "2r2w")
	if err != nil {
		t.Fatal(err)
	}
	opts := explorer.Options{StateCaching: true, MaxSchedules: 100}
	res, err := explorer.Run(t.Context(), sys, opts)
	if err != nil || res.Checkpointed {
		t.Fatalf("without checkpoints: checkpointed %v, error %v", res.Checkpointed, err)
	}
	opts.Checkpoint = explorer.Checkpointing{Dir: filepath.Join(t.TempDir(), "ck"), Every: time.Hour, Identity: []string{"system=register"}}
	if res, err = explorer.Run(t.Context(), sys, opts); err != nil || !res.Checkpointed {
		t.Fatalf("stopped by its budget: checkpointed %v, error %v", res.Checkpointed, err)
	}
	var told []explorer.Resumed
	opts.Checkpoint.Resume, opts.MaxSchedules = true, explorer.Unlimited
	opts.Checkpoint.OnResume = func(r explorer.Resumed) { told = append(told, r) }
	if res, err = explorer.Run(t.Context(), sys, opts); err != nil || !res.Checkpointed || !res.Complete {
		t.Fatalf("resumed: checkpointed %v, complete %v, error %v", res.Checkpointed, res.Complete, err)
	}
	if len(told) != 1 || told[0].Schedules != 100 || told[0].States == 0 {
		t.Errorf("OnResume told %+v, want once, at 100 schedules", told)
	}
	// Its search has ended: nothing goes on, and OnResume is not called.
	told = nil
	if res, err = explorer.Run(t.Context(), sys, opts); err != nil || !res.Checkpointed || len(told) != 0 {
		t.Errorf("resumed an ended search: checkpointed %v, told %+v, error %v", res.Checkpointed, told, err)
	}
}

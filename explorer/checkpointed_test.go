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
// resume.
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
	opts.Checkpoint.Resume, opts.MaxSchedules = true, explorer.Unlimited
	if res, err = explorer.Run(t.Context(), sys, opts); err != nil || !res.Checkpointed || !res.Complete {
		t.Fatalf("resumed: checkpointed %v, complete %v, error %v", res.Checkpointed, res.Complete, err)
	}
	if res, err = explorer.Run(t.Context(), sys, opts); err != nil || !res.Checkpointed {
		t.Errorf("resumed an ended search: checkpointed %v, error %v", res.Checkpointed, err)
	}
}

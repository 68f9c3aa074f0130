package ravelcli

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ravelmc/ravel/explorer"
	"github.com/ravelmc/ravel/model"
	"github.com/ravelmc/ravel/visited"
)

// failStoreAfter makes check's search stop after n schedules with the visited-state
// store's error, as a full disk stops it: the search until then, then the failure. With
// noCheckpoint, the run reports no checkpoint taken, as a run that failed before its
// first one.
func failStoreAfter(t *testing.T, n int64, noCheckpoint bool) {
	t.Helper()
	old := runSearch
	t.Cleanup(func() { runSearch = old })
	runSearch = func(ctx context.Context, sys model.System, opts explorer.Options) (*explorer.Result, error) {
		opts.MaxSchedules = n
		res, err := explorer.Run(ctx, sys, opts)
		if err != nil || res == nil {
			return res, err
		}
		if noCheckpoint {
			res.Checkpointed = false
		}
		return res, fmt.Errorf("visited set: %w", &visited.StoreError{Op: "write", Dir: "/full/ravel-visited-1", Err: visited.ErrDiskFull})
	}
}

// TestStoreFailureReported: a search the visited-state store stopped says so in its
// status line (not "stopped at the schedule budget (--max-schedules 0)"), gives the
// error in --json, exits 2, and with --checkpoint says whether a checkpoint is there to
// resume from — which then resumes.
func TestStoreFailureReported(t *testing.T) {
	args := []string{"check", "register", "--harness", "2r2w", "--state-caching", "on", "--max-schedules", "0", "--quiet"}
	t.Run("text", func(t *testing.T) {
		failStoreAfter(t, 100, false)
		code, stdout, stderr := runRavel(args...)
		if code != exitUsage {
			t.Errorf("exit %d, want 2", code)
		}
		if want := "search: stopped — the visited-state store failed (the error below); the figures cover the search until then"; !strings.Contains(stdout, want) {
			t.Errorf("report:\n%s\nwant %q", stdout, want)
		}
		if strings.Contains(stdout, "schedule budget") || strings.Contains(stdout, "hint:") {
			t.Errorf("report names a budget or hints at another search:\n%s", stdout)
		}
		if !strings.Contains(stderr, "not enough free disk space") {
			t.Errorf("stderr:\n%s\nwant the store's error", stderr)
		}
	})
	t.Run("json", func(t *testing.T) {
		failStoreAfter(t, 100, false)
		code, stdout, _ := runRavel(append(args, "--json")...)
		var r struct {
			Complete, Interrupted bool
			Error                 string
		}
		if err := json.Unmarshal([]byte(stdout), &r); err != nil {
			t.Fatalf("%v in:\n%s", err, stdout)
		}
		if code != exitUsage || r.Complete || r.Interrupted || !strings.Contains(r.Error, "visited-state store in /full/ravel-visited-1: write: not enough free disk space") {
			t.Errorf("exit %d, %+v; want exit 2 and the store's error", code, r)
		}
	})
	t.Run("checkpoint", func(t *testing.T) {
		ck := filepath.Join(t.TempDir(), "ck")
		failStoreAfter(t, 100, false)
		_, _, stderr := runRavel(append(args, "--checkpoint", ck)...)
		if want := "its last checkpoint in " + ck + " is intact: once the cause is mended, continue with the same command and --resume " + ck; !strings.Contains(stderr, want) {
			t.Errorf("stderr:\n%s\nwant %q", stderr, want)
		}
		runSearch = explorer.Run
		if code, stdout, stderr := runRavel(append(args, "--resume", ck)...); code != exitOK || !strings.Contains(stdout, "search: complete") {
			t.Errorf("resumed: exit %d\n%s\n%s", code, stdout, stderr)
		}
	})
	t.Run("no checkpoint yet", func(t *testing.T) {
		ck := filepath.Join(t.TempDir(), "ck")
		failStoreAfter(t, 100, true)
		_, _, stderr := runRavel(append(args, "--checkpoint", ck)...)
		if want := "before its first checkpoint: there is none in " + ck + " to resume from"; !strings.Contains(stderr, want) {
			t.Errorf("stderr:\n%s\nwant %q", stderr, want)
		}
	})
}

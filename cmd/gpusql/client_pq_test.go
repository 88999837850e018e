package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// testClientLibPQ runs lib/pq, Go's database/sql driver, against both
// servers through tools/pqclient (a module of its own, so that the
// product's go.mod does not depend on lib/pq): a connection, a simple
// query, prepared statements with parameters of several types, NULLs,
// transactions, COPY FROM STDIN through pq.CopyIn and errors with their
// SQLSTATE, each printed as the driver hands it back. The program is
// built with the go command running the test, which fetches lib/pq from
// the module proxy (or the module cache) at the version in
// tools/pqclient/go.sum.
func testClientLibPQ(t *testing.T, e *clientEnv) {
	goCmd, err := exec.LookPath("go")
	if err != nil {
		goCmd = filepath.Join(os.Getenv("GOROOT"), "bin", "go")
	}
	requireClient(t, goCmd, "the go command in PATH")
	bin := filepath.Join(t.TempDir(), "pqclient")
	build := exec.Command(goCmd, "build", "-o", bin, ".")
	build.Dir = filepath.Join(e.repo, "tools", "pqclient")
	if out, err := build.CombinedOutput(); err != nil {
		msg := "building tools/pqclient (lib/pq from the module proxy): " + err.Error() + "\n" + string(out)
		if os.Getenv("CI") != "" {
			t.Fatalf("CI is set and the client is required: %s", msg)
		}
		t.Skip(msg)
	}
	gp := runClient(t, nil, bin, e.gpDSN())
	pg := runClient(t, nil, bin, e.pgDSN())
	sameOutput(t, "lib/pq", gp, pg)
	t.Logf("against gpusql:\n%s", firstLines(gp, 40))
}

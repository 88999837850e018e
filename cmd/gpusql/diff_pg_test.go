package main

// A private PostgreSQL 15 server for the differential test.
//
// The server runs from the Debian binaries (/usr/lib/postgresql/15/bin, or
// $GPUSQL_PG_BINDIR) in a fresh data directory under a temp dir, listening
// only on a unix socket in that directory (listen_addresses=''), so it
// never collides with another server on the machine. initdb refuses to run
// as root: when the test runs as root, initdb and postgres run as the
// "postgres" user (the Debian package creates it) through the process
// credentials, and the temp dir is handed to that user.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
)

const (
	diffPGBinDirDefault = "/usr/lib/postgresql/15/bin"
	// diffPGPort only names the socket file (.s.PGSQL.<port>) in our private
	// socket dir; no TCP port is opened.
	diffPGPort = 54329
)

type pgServer struct {
	root    string // temp dir: data/, socket, log
	port    int    // names the socket; also the TCP port when tcp is set
	tcp     bool   // listening on 127.0.0.1:port too (startPGTCP)
	dataDir string
	logFile string
	cmd     *exec.Cmd
	exited  chan struct{}
	waitErr error
}

// pgBinDir finds the PostgreSQL 15 binaries, or says why they are unusable.
func pgBinDir() (string, error) {
	dir := os.Getenv("GPUSQL_PG_BINDIR")
	if dir == "" {
		dir = diffPGBinDirDefault
	}
	for _, b := range []string{"initdb", "postgres"} {
		if _, err := os.Stat(filepath.Join(dir, b)); err != nil {
			return "", fmt.Errorf("PostgreSQL 15 server binaries not found (%v); install them with "+
				"`apt-get install -y postgresql-15 postgresql-diffClient-15` or set GPUSQL_PG_BINDIR", err)
		}
	}
	out, err := exec.Command(filepath.Join(dir, "postgres"), "--version").Output()
	if err != nil {
		return "", fmt.Errorf("%s/postgres --version: %v", dir, err)
	}
	if !strings.Contains(string(out), "(PostgreSQL) 15.") {
		return "", fmt.Errorf("%s/postgres is not PostgreSQL 15: %s", dir, strings.TrimSpace(string(out)))
	}
	return dir, nil
}

// requirePG returns the binaries' directory. Without them the test fails
// when $CI is set (CI must have them) and is skipped otherwise.
func requirePG(t *testing.T) string {
	t.Helper()
	dir, err := pgBinDir()
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI is set and PostgreSQL 15 is required: %v", err)
		}
		t.Skipf("skipping the differential test: %v", err)
	}
	return dir
}

// pgCredential is the identity to run initdb/postgres as: nil (ourselves)
// unless we are root, then the postgres user.
func pgCredential() (*syscall.Credential, error) {
	if os.Geteuid() != 0 {
		return nil, nil
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		return nil, fmt.Errorf("running as root, so PostgreSQL must run as the postgres user: %v", err)
	}
	uid, err1 := strconv.Atoi(u.Uid)
	gid, err2 := strconv.Atoi(u.Gid)
	if err1 != nil || err2 != nil {
		return nil, fmt.Errorf("bad uid/gid for postgres: %q %q", u.Uid, u.Gid)
	}
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid), NoSetGroups: true}, nil
}

func startPG(t *testing.T, binDir string) *pgServer {
	t.Helper()
	return startPGOn(t, binDir, false)
}

// startPGTCP is startPG listening on a free TCP port of 127.0.0.1 as well,
// for clients that cannot use a unix socket (pgJDBC).
func startPGTCP(t *testing.T, binDir string) *pgServer {
	t.Helper()
	return startPGOn(t, binDir, true)
}

func startPGOn(t *testing.T, binDir string, tcp bool) *pgServer {
	t.Helper()
	cred, err := pgCredential()
	if err != nil {
		t.Fatal(err)
	}
	// The server's user must be able to reach the dir: as root, make it
	// under /tmp (not $TMPDIR, which may be private) and give it to that
	// user. $GPUSQL_PG_TMPDIR overrides the parent.
	base := os.Getenv("GPUSQL_PG_TMPDIR")
	if base == "" && cred != nil {
		base = "/tmp"
	}
	root, err := os.MkdirTemp(base, "gpusql-diff-pg-")
	if err != nil {
		t.Fatal(err)
	}
	s := &pgServer{root: root, dataDir: filepath.Join(root, "data"), logFile: filepath.Join(root, "postgres.log"),
		port: diffPGPort, tcp: tcp}
	listen := ""
	if tcp {
		// A port the kernel just handed out and took back: free unless
		// another process grabs it in between.
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		s.port = ln.Addr().(*net.TCPAddr).Port
		ln.Close()
		listen = "127.0.0.1"
	}
	t.Cleanup(func() {
		s.stop(t)
		os.RemoveAll(root)
	})
	if cred != nil {
		if err := os.Chown(root, int(cred.Uid), int(cred.Gid)); err != nil {
			t.Fatal(err)
		}
	}

	// The C locale with UTF8 encoding, the reference gpusql matches: text
	// sorts and compares by bytes (= code points for UTF-8), and
	// upper/lower/ILIKE fold ASCII letters only.
	initdb := exec.Command(filepath.Join(binDir, "initdb"),
		"-D", s.dataDir, "-U", "postgres", "--auth=trust", "--encoding=UTF8",
		"--locale=C", "--no-sync")
	initdb.Dir = root
	initdb.Env = diffPGEnv()
	initdb.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	if out, err := initdb.CombinedOutput(); err != nil {
		t.Fatalf("initdb: %v\n%s", err, out)
	}

	log, err := os.Create(s.logFile)
	if err != nil {
		t.Fatal(err)
	}
	defer log.Close()
	s.cmd = exec.Command(filepath.Join(binDir, "postgres"),
		"-D", s.dataDir,
		"-p", strconv.Itoa(s.port),
		"-k", root,
		"-c", "listen_addresses="+listen,
		"-c", "fsync=off",
		"-c", "synchronous_commit=off",
		"-c", "full_page_writes=off",
		"-c", "max_connections=20",
		"-c", "shared_buffers=64MB",
		"-c", "autovacuum=off",
		"-c", "jit=off",
		"-c", "max_parallel_workers_per_gather=0",
	)
	s.cmd.Dir = root
	s.cmd.Env = diffPGEnv()
	s.cmd.Stdout = log
	s.cmd.Stderr = log
	// If the test binary dies, take the server down with it (SIGQUIT is
	// an immediate shutdown).
	s.cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred, Setpgid: true, Pdeathsig: syscall.SIGQUIT}
	if err := s.cmd.Start(); err != nil {
		t.Fatalf("starting postgres: %v", err)
	}
	s.exited = make(chan struct{})
	go func() {
		s.waitErr = s.cmd.Wait()
		close(s.exited)
	}()

	// Poll until it accepts connections (bounded).
	deadline := time.Now().Add(60 * time.Second)
	for {
		c, err := s.connect(context.Background())
		if err == nil {
			c.Close(context.Background())
			return s
		}
		select {
		case <-s.exited:
			t.Fatalf("postgres exited during startup (%v); log:\n%s", s.waitErr, s.log())
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("postgres not ready after 60s: %v; log:\n%s", err, s.log())
		}
	}
}

func diffPGEnv() []string {
	return []string{"PATH=/usr/bin:/bin", "LC_ALL=C.UTF-8", "TZ=UTC", "PGTZ=UTC"}
}

func (s *pgServer) connString() string {
	return fmt.Sprintf("host=%s port=%d user=postgres dbname=postgres sslmode=disable connect_timeout=10", s.root, s.port)
}

func (s *pgServer) connect(ctx context.Context) (*pgconn.PgConn, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	return pgconn.Connect(ctx, s.connString())
}

func (s *pgServer) log() string {
	b, _ := os.ReadFile(s.logFile)
	if len(b) > 8000 {
		b = b[len(b)-8000:]
	}
	return string(b)
}

// stop shuts the server down: fast shutdown, then immediate, then kill.
func (s *pgServer) stop(t *testing.T) {
	if s.cmd == nil || s.cmd.Process == nil {
		return
	}
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGQUIT, syscall.SIGKILL} {
		if err := s.cmd.Process.Signal(sig); err != nil && !errors.Is(err, os.ErrProcessDone) {
			t.Logf("signalling postgres: %v", err)
		}
		select {
		case <-s.exited:
			s.cmd = nil
			return
		case <-time.After(15 * time.Second):
		}
	}
	t.Logf("postgres (pid %d) did not exit", s.cmd.Process.Pid)
}

// pgErrCode returns the SQLSTATE of err, or a description if it has none.
func pgErrCode(err error) string {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code
	}
	return "(no SQLSTATE: " + err.Error() + ")"
}

func pgErrText(err error) string {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		var b bytes.Buffer
		fmt.Fprintf(&b, "%s %s: %s", pe.Severity, pe.Code, pe.Message)
		if pe.Detail != "" {
			fmt.Fprintf(&b, " (DETAIL: %s)", pe.Detail)
		}
		return b.String()
	}
	return err.Error()
}

package main

// Passwords, roles, TLS and limits through the command's own wiring
// (parseFlags, openRoles, newEngine, wireConfig), with pgx and psql.

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"io"
	"log/slog"
	"math/big"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gpusql/gpusql/wire"
	"github.com/jackc/pgx/v5/pgconn"
)

// authServer is a gpusql server started from command line flags.
type authServer struct {
	port    int
	dataDir string
	stop    func()
}

// startFlags starts a server with args (plus a data directory, unless
// args name one, a free loopback port and the CPU backend).
func startFlags(t *testing.T, dataDir string, args ...string) *authServer {
	t.Helper()
	if dataDir == "" {
		dataDir = t.TempDir()
	}
	o, err := parseFlags(append([]string{"--data-dir", dataDir, "--listen", "127.0.0.1:0", "--device", "cpu"}, args...), io.Discard)
	if err != nil {
		t.Fatalf("flags %q: %v", args, err)
	}
	logger := slog.New(slog.DiscardHandler)
	roles, err := openRoles(o)
	if err != nil {
		t.Fatal(err)
	}
	eng, _, err := newEngine(o, logger, roles)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", o.listen)
	if err != nil {
		t.Fatal(err)
	}
	srv := wire.NewServer(wireConfig(o, logger, roles), eng)
	done := make(chan error, 1)
	go func() { done <- srv.Serve(context.Background(), ln) }()
	var once sync.Once
	stop := func() {
		once.Do(func() {
			srv.Close()
			<-done
			releaseDataDir(eng)
		})
	}
	t.Cleanup(stop)
	return &authServer{port: ln.Addr().(*net.TCPAddr).Port, dataDir: o.dataDir, stop: stop}
}

func (s *authServer) dsn(user, password, extra string) string {
	return "host=127.0.0.1 port=" + strconv.Itoa(s.port) + " user=" + user + " password='" + password + "'" +
		" dbname=gpusql sslmode=disable " + extra
}

func (s *authServer) connect(t *testing.T, user, password string) (*pgconn.PgConn, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := pgconn.Connect(ctx, s.dsn(user, password, ""))
	if err == nil {
		t.Cleanup(func() { c.Close(context.Background()) })
	}
	return c, err
}

func (s *authServer) mustConnect(t *testing.T, user, password string) *pgconn.PgConn {
	t.Helper()
	c, err := s.connect(t, user, password)
	if err != nil {
		t.Fatalf("connect as %s: %v", user, err)
	}
	return c
}

// wantCode fails unless err carries SQLSTATE code (and msg, if given).
func wantCode(t *testing.T, err error, code, msg string) {
	t.Helper()
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Code != code || !strings.Contains(pe.Message, msg) {
		t.Fatalf("error %v, want SQLSTATE %s with %q", err, code, msg)
	}
}

func sq(t *testing.T, c *pgconn.PgConn, sql string) string {
	t.Helper()
	out, err := pgExec(context.Background(), c, sql)
	if err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return out
}

func passwordFile(t *testing.T, pw string) string {
	p := filepath.Join(t.TempDir(), "pw")
	if err := os.WriteFile(p, []byte(pw+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func psql(t *testing.T, dsn, sql string) (string, string, error) {
	t.Helper()
	requireClient(t, "psql", "postgresql-client")
	return runClientErr(t, nil, "psql", "-X", "-A", "-t", "-d", dsn, "-c", sql)
}

func TestAuthSCRAM(t *testing.T) {
	s := startFlags(t, "", "--auth", "scram-sha-256", "--password-file", passwordFile(t, "boot pw"))
	if _, err := s.connect(t, "gpusql", "wrong"); err == nil {
		t.Fatal("a wrong password connected")
	} else {
		wantCode(t, err, "28P01", `password authentication failed for user "gpusql"`)
	}
	if _, err := s.connect(t, "nobody", "x"); err == nil {
		t.Fatal("an unknown role connected")
	} else {
		wantCode(t, err, "28P01", `password authentication failed for user "nobody"`)
	}
	su := s.mustConnect(t, "gpusql", "boot pw")
	if got := sq(t, su, "select current_user, current_setting('is_superuser')"); got != "gpusql | on\n" {
		t.Fatalf("superuser session: %q", got)
	}
	os.WriteFile(filepath.Join(s.dataDir, "t.csv"), []byte("x\n1\n2\n"), 0o644)
	sq(t, su, "create role alice login password 'alice pw'; create table t (x int) from csv 't.csv' with (header true)")
	if v := sq(t, su, "select rolpassword from pg_authid where rolname = 'alice'"); !strings.HasPrefix(v, "SCRAM-SHA-256$4096:") {
		t.Fatalf("alice's stored password: %q", v)
	}

	// psql: right and wrong passwords.
	out, stderr, err := psql(t, s.dsn("alice", "alice pw", ""), "select current_user")
	if err != nil || out != "alice\n" {
		t.Fatalf("psql as alice: %q %q %v", out, stderr, err)
	}
	if _, stderr, err = psql(t, s.dsn("alice", "nope", ""), "select 1"); err == nil ||
		!strings.Contains(stderr, `password authentication failed for user "alice"`) {
		t.Fatalf("psql with a wrong password: %q %v", stderr, err)
	}

	alice := s.mustConnect(t, "alice", "alice pw")
	_, err = pgExec(context.Background(), alice, "select * from t")
	wantCode(t, err, "42501", "permission denied for table t")
	if got := sq(t, alice, "select has_table_privilege('t', 'select'), current_setting('is_superuser')"); got != "f | off\n" {
		t.Fatalf("before GRANT: %q", got)
	}
	sq(t, su, "grant select on t to alice")
	if got := sq(t, alice, "select sum(x), has_table_privilege('alice', 't', 'SELECT'), has_table_privilege('t', 'INSERT') from t"); got != "3 | t | f\n" {
		t.Fatalf("after GRANT: %q", got)
	}
	if got := sq(t, su, "select relacl from pg_class where relname = 't'"); got != "{gpusql=arwdDxt/gpusql,alice=r/gpusql}\n" {
		t.Fatalf("relacl: %q", got)
	}
	// Writes to schema public are the superusers'.
	for sql, msg := range map[string]string{
		"create table u (a int)":   "permission denied for schema public",
		"insert into t values (3)": "permission denied for table t",
		"drop table t":             "must be owner of table t",
		"create role eve":          "permission denied to manage roles",
		"copy t to '/tmp/x.csv'":   "permission denied to COPY to a file",
		"create temp table v (x int) from csv 't.csv' with (header true)": "permission denied to COPY from a file",
	} {
		_, err := pgExec(context.Background(), alice, sql)
		wantCode(t, err, "42501", msg)
	}
	// Temporary tables are the session's own.
	if got := sq(t, alice, "create temp table mine (a int); insert into mine values (7); select a from mine"); got != "7\n" {
		t.Fatalf("temp table: %q", got)
	}
	sq(t, su, "grant pg_read_server_files to alice")
	if got := sq(t, alice, "create temp table v (x int) from csv 't.csv' with (header true); select count(*) from v"); got != "2\n" {
		t.Fatalf("load after pg_read_server_files: %q", got)
	}
	if got := sq(t, su, "select r.rolname from pg_auth_members m join pg_roles r on r.oid = m.member"); got != "alice\n" {
		t.Fatalf("pg_auth_members: %q", got)
	}
	// Writing files under the file root takes pg_write_server_files,
	// and SELECT on what is written.
	sq(t, su, "grant pg_write_server_files to alice")
	sq(t, alice, "copy t to 'alice.parquet' with (format parquet)")
	if got := sq(t, alice, "copy (select x * 2 from t) to 'alice.csv' with (format csv); create temp table back from parquet 'alice.parquet'; select sum(x) from back"); got != "3\n" {
		t.Fatalf("after pg_write_server_files: %q", got)
	}
	if got := sq(t, su, "select g.rolname from pg_auth_members m join pg_roles g on g.oid = m.roleid join pg_roles r on r.oid = m.member where r.rolname = 'alice' order by 1"); got != "pg_read_server_files\npg_write_server_files\n" {
		t.Fatalf("pg_auth_members: %q", got)
	}
	sq(t, su, "revoke pg_write_server_files from alice")
	_, err = pgExec(context.Background(), alice, "copy t to 'alice.parquet' with (format parquet)")
	wantCode(t, err, "42501", "permission denied to COPY to a file")
	_, err = pgExec(context.Background(), su, "drop role alice")
	wantCode(t, err, "2BP01", "cannot be dropped")
	out, _, err = psql(t, s.dsn("gpusql", "boot pw", ""), `\du`)
	if err != nil || !strings.Contains(out, "alice|") || !strings.Contains(out, "gpusql|Superuser") {
		t.Fatalf(`\du: %q %v`, out, err)
	}

	// The roles survive a restart (no password file: the stored one).
	s.stop()
	s2 := startFlags(t, s.dataDir, "--auth", "scram-sha-256")
	a2 := s2.mustConnect(t, "alice", "alice pw")
	su2 := s2.mustConnect(t, "gpusql", "boot pw")
	// The table and its grant come back; a grant does not outlive its
	// table: a new t starts with no grants.
	if got := sq(t, a2, "select sum(x), has_table_privilege('alice', 't', 'select') from t"); got != "3 | t\n" {
		t.Fatalf("after restart: %q", got)
	}
	sq(t, su2, "drop table t; create table t (x int)")
	if got := sq(t, a2, "select has_table_privilege('alice', 'pg_class', 'select'), has_table_privilege('alice', 't', 'select')"); got != "t | f\n" {
		t.Fatalf("after drop and create: %q", got)
	}
	sq(t, su2, "alter role alice password 'new pw' nologin")
	if _, err := s2.connect(t, "alice", "new pw"); err == nil {
		t.Fatal("a NOLOGIN role connected")
	}
	sq(t, su2, "alter role alice login; revoke select on t from alice; revoke pg_read_server_files from alice")
	s2.mustConnect(t, "alice", "new pw")
	sq(t, su2, "drop role alice")
	if _, err := s2.connect(t, "alice", "new pw"); err == nil {
		t.Fatal("a dropped role connected")
	}
}

func TestAuthMD5(t *testing.T) {
	s := startFlags(t, "", "--auth", "md5", "--password-file", passwordFile(t, "boot"))
	su := s.mustConnect(t, "gpusql", "boot")
	sq(t, su, "create user bob password 'bob pw'")
	if v := sq(t, su, "select rolpassword from pg_authid where rolname = 'bob'"); !strings.HasPrefix(v, "md5") {
		t.Fatalf("bob's stored password: %q", v)
	}
	out, stderr, err := psql(t, s.dsn("bob", "bob pw", ""), "select current_user")
	if err != nil || out != "bob\n" {
		t.Fatalf("psql md5: %q %q %v", out, stderr, err)
	}
	if _, stderr, err = psql(t, s.dsn("bob", "bad", ""), "select 1"); err == nil ||
		!strings.Contains(stderr, `password authentication failed for user "bob"`) {
		t.Fatalf("psql md5, wrong password: %q %v", stderr, err)
	}
	s.mustConnect(t, "bob", "bob pw")
	_, err = s.connect(t, "bob", "bad")
	wantCode(t, err, "28P01", `password authentication failed for user "bob"`)
}

func TestAuthJDBC(t *testing.T) {
	requireClient(t, "java", "default-jdk-headless")
	requireClient(t, debianJDBCJar, "libpostgresql-jdbc-java")
	s := startFlags(t, "", "--auth", "scram-sha-256", "--password-file", passwordFile(t, "jdbc pw"))
	src := filepath.Join(t.TempDir(), "Login.java")
	os.WriteFile(src, []byte(`import java.sql.*;
public class Login {
  public static void main(String[] a) throws Exception {
    try (Connection c = DriverManager.getConnection(a[0], "gpusql", a[1]);
         ResultSet r = c.createStatement().executeQuery("select current_user")) {
      r.next(); System.out.println(r.getString(1));
    } catch (SQLException e) { System.out.println(e.getSQLState()); }
  }
}
`), 0o644)
	url := "jdbc:postgresql://127.0.0.1:" + strconv.Itoa(s.port) + "/gpusql?sslmode=disable"
	if out := runClient(t, nil, "java", "-cp", debianJDBCJar, src, url, "jdbc pw"); out != "gpusql\n" {
		t.Fatalf("JDBC, right password: %q", out)
	}
	if out := runClient(t, nil, "java", "-cp", debianJDBCJar, src, url, "wrong"); out != "28P01\n" {
		t.Fatalf("JDBC, wrong password: %q", out)
	}
}

func TestListenNeedsAuth(t *testing.T) {
	dir := t.TempDir()
	_, err := parseFlags([]string{"--data-dir", dir, "--listen", "0.0.0.0:0"}, io.Discard)
	var ue *usageError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "not a loopback address") {
		t.Fatalf("listening everywhere with no --auth: %v", err)
	}
	if _, err := parseFlags([]string{"--data-dir", dir, "--listen", "0.0.0.0:0", "--auth", "trust"}, io.Discard); err != nil {
		t.Fatalf("explicit trust: %v", err)
	}
	o, err := parseFlags([]string{"--data-dir", dir, "--auth", "scram-sha-256"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := openRoles(o); err == nil || !strings.Contains(err.Error(), "--password-file") {
		t.Fatalf("scram without a password for gpusql: %v", err)
	}
	for _, args := range [][]string{{"--tls-required"}, {"--tls-cert", "x"}, {"--auth", "ldap"}, {"--max-connections", "0"}, {"--max-query-memory", "lots"}} {
		if _, err := parseFlags(append([]string{"--data-dir", dir}, args...), io.Discard); !errors.As(err, &ue) {
			t.Errorf("%q: %v, want a usage error", args, err)
		}
	}
}

// writeCA makes a CA and a server certificate for 127.0.0.1 signed by it,
// as PEM files in dir.
func writeCA(t *testing.T, dir string) (caFile, certFile, keyFile string) {
	t.Helper()
	newKey := func() *ecdsa.PrivateKey {
		k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	caKey, srvKey := newKey(), newKey()
	now := time.Now()
	ca := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "gpusql test CA"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(24 * time.Hour), IsCA: true, BasicConstraintsValid: true,
		KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature}
	caDER, err := x509.CreateCertificate(rand.Reader, ca, ca, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	caCert, _ := x509.ParseCertificate(caDER)
	leaf := &x509.Certificate{SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "127.0.0.1"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(24 * time.Hour), IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)},
		DNSNames: []string{"localhost"}, KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	leafDER, err := x509.CreateCertificate(rand.Reader, leaf, caCert, &srvKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalECPrivateKey(srvKey)
	if err != nil {
		t.Fatal(err)
	}
	write := func(name, typ string, der []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	return write("ca.pem", "CERTIFICATE", caDER), write("server.pem", "CERTIFICATE", leafDER), write("server.key", "EC PRIVATE KEY", keyDER)
}

func TestTLS(t *testing.T) {
	dir := t.TempDir()
	ca, cert, key := writeCA(t, dir)
	s := startFlags(t, "", "--tls-cert", cert, "--tls-key", key, "--tls-required",
		"--auth", "scram-sha-256", "--password-file", passwordFile(t, "tls pw"))
	base := "host=127.0.0.1 port=" + strconv.Itoa(s.port) + " user=gpusql password='tls pw' dbname=gpusql "
	for _, mode := range []string{"require", "verify-ca", "verify-full"} {
		out, stderr, err := psql(t, base+"sslmode="+mode+" sslrootcert="+ca, "select 'ok'")
		if err != nil || out != "ok\n" {
			t.Fatalf("psql sslmode=%s: %q %q %v", mode, out, stderr, err)
		}
	}
	// verify-full checks the name: "localhost" is in the certificate,
	// another name for the same address is not.
	if _, stderr, err := psql(t, strings.Replace(base, "host=127.0.0.1", "host=127.0.0.1 hostaddr=127.0.0.1", 1)+
		"sslmode=verify-full sslrootcert="+filepath.Join(dir, "server.pem"), "select 1"); err == nil {
		t.Fatalf("verify-full against the wrong root passed: %q", stderr)
	}
	_, stderr, err := psql(t, base+"sslmode=disable", "select 1")
	if err == nil || !strings.Contains(stderr, "accepts only encrypted connections") {
		t.Fatalf("plain connection under --tls-required: %q %v", stderr, err)
	}
	// pgx, verify-full against the test CA.
	ctx := context.Background()
	c, err := pgconn.Connect(ctx, base+"sslmode=verify-full sslrootcert="+ca)
	if err != nil {
		t.Fatalf("pgx verify-full: %v", err)
	}
	c.Close(ctx)
	// GSSENCRequest is answered 'N'.
	nc, err := net.Dial("tcp", "127.0.0.1:"+strconv.Itoa(s.port))
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	nc.Write([]byte{0, 0, 0, 8, 0x04, 0xd2, 0x16, 0x30})
	var b [1]byte
	if _, err := io.ReadFull(nc, b[:]); err != nil || b[0] != 'N' {
		t.Fatalf("GSSENCRequest answer %q %v", b[0], err)
	}
	_ = tls.VersionTLS12
}

func TestLimits(t *testing.T) {
	s := startFlags(t, "", "--max-connections", "2", "--idle-session-timeout", "20ms",
		"--idle-in-transaction-session-timeout", "20ms", "--statement-timeout", "90s",
		"--max-prepared-statements", "2", "--max-query-memory", "64KiB")
	a := s.mustConnect(t, "gpusql", "")
	b := s.mustConnect(t, "gpusql", "")
	_, err := s.connect(t, "gpusql", "")
	wantCode(t, err, "53300", "too many clients")

	// One statement per connection here: the idle timeout ends them
	// between statements.
	sq(t, a, "set idle_session_timeout = 0; set idle_in_transaction_session_timeout = 0")
	if got := sq(t, a, "show statement_timeout"); got != "90s\n" {
		t.Fatalf("statement_timeout default: %q", got)
	}
	if got := sq(t, a, "prepare p1 as select 1; prepare p2 as select 2; select 3"); got != "3\n" {
		t.Fatalf("prepare: %q", got)
	}
	_, err = pgExec(context.Background(), a, "prepare p3 as select 3")
	wantCode(t, err, "54000", "too many prepared statements")
	// The memory limit: an IN list of 100000 values materialised on the
	// host passes 64 KiB; the server goes on.
	_, err = pgExec(context.Background(), a, "select count(*) from generate_series(1, 10) g where g in (select x from generate_series(1, 100000) x)")
	wantCode(t, err, "53200", "out of memory")
	if got := sq(t, a, "select count(*) from generate_series(1, 10) g where g in (select x from generate_series(1, 100) x)"); got != "10\n" {
		t.Fatalf("after 53200: %q", got)
	}

	// b sits idle: the server ends it with 57P05 (wait for it, however
	// long it takes; there is no timing to assert).
	err = b.WaitForNotification(context.Background())
	wantCode(t, err, "57P05", "idle-session timeout")
	// b's slot is freed once its session has ended, which may be just
	// after the client reads the error: until then, 53300.
	var c *pgconn.PgConn
	for {
		c, err = s.connect(t, "gpusql", "")
		var pe *pgconn.PgError
		if err == nil || !errors.As(err, &pe) || pe.Code != "53300" {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	if err != nil {
		t.Fatalf("connect after b ended: %v", err)
	}
	if _, err := pgExec(context.Background(), c, "begin"); err != nil {
		t.Fatal(err)
	}
	err = c.WaitForNotification(context.Background())
	wantCode(t, err, "25P03", "idle-in-transaction timeout")
	_ = exec.ErrNotFound
}

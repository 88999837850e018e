package main

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestAuthClients: psycopg2, psycopg 3 (both through libpq) and
// node-postgres log in with SCRAM-SHA-256 and with md5, and a wrong
// password is refused as PostgreSQL refuses it: 28P01, "password
// authentication failed for user ...". libpq reports no SQLSTATE for a
// failed connection, so for the Python clients the message is checked;
// node-postgres reports the code.
func TestAuthClients(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: runs external clients")
	}
	repo, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	pyScript := filepath.Join(repo, "testdata", "clients", "python", "login.py")
	nodeDir := filepath.Join(repo, "testdata", "clients", "node")
	type client struct {
		name  string
		check func(t *testing.T)
		login func(t *testing.T, s *authServer, user, password string) string
	}
	python := func(driver, module, pkg string) client {
		return client{driver, func(t *testing.T) { requirePython(t, module, pkg) },
			func(t *testing.T, s *authServer, user, password string) string {
				return runClient(t, nil, debianPython, pyScript, driver, s.dsn(user, password, ""))
			}}
	}
	clients := []client{
		python("psycopg2", "psycopg2", "python3-psycopg2"),
		python("psycopg3", "psycopg", "python3-psycopg"),
		{"node", func(t *testing.T) {
			requireClient(t, "node", "nodejs")
			requireClient(t, filepath.Join(nodeDir, "node_modules", "pg", "package.json"),
				"node-postgres with `npm ci` in testdata/clients/node (scripts/clients/npm-install.sh)")
		}, func(t *testing.T, s *authServer, user, password string) string {
			return runClient(t, nil, "node", filepath.Join(nodeDir, "login.js"), "127.0.0.1", strconv.Itoa(s.port), user, password)
		}},
	}
	for _, method := range []string{"scram-sha-256", "md5"} {
		t.Run(method, func(t *testing.T) {
			s := startFlags(t, "", "--auth", method, "--password-file", passwordFile(t, "boot pw"))
			su := s.mustConnect(t, "gpusql", "boot pw")
			// A password with characters SCRAM's SASLprep and the DSN
			// quoting must carry.
			sq(t, su, `create role carol login password 'p@ss wörd'`)
			prefix := map[string]string{"scram-sha-256": "SCRAM-SHA-256$", "md5": "md5"}[method]
			if v := sq(t, su, "select rolpassword from pg_authid where rolname = 'carol'"); !strings.HasPrefix(v, prefix) {
				t.Fatalf("carol's stored password %q, want a %s verifier", v, method)
			}
			for _, c := range clients {
				t.Run(c.name, func(t *testing.T) {
					c.check(t)
					if out := c.login(t, s, "carol", "p@ss wörd"); out != "carol\n" {
						t.Errorf("right password: %q", out)
					}
					for _, bad := range [][2]string{{"carol", "p@ss word"}, {"nobody", "x"}} {
						out := c.login(t, s, bad[0], bad[1])
						msg := `password authentication failed for user "` + bad[0] + `"`
						f := strings.Fields(out)
						if len(f) < 2 || f[0] != "error" || !strings.Contains(out, msg) ||
							f[1] != "28P01" && !(f[1] == "-" && c.name != "node") {
							t.Errorf("%s with a wrong password: %q, want error 28P01 %q", bad[0], out, msg)
						}
					}
				})
			}
		})
	}
}

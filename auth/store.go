package auth

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/internal/atomicfile"
)

// Bootstrap is the superuser that every store has, as PostgreSQL's
// initdb makes one. It cannot be dropped or lose superuser.
const Bootstrap = "gpusql"

// BootstrapOID is the bootstrap superuser's OID, as in PostgreSQL.
const BootstrapOID = 10

// ReadFilesRole is the predefined role whose members may load files
// from the file root (COPY FROM 'file', CREATE TABLE ... FROM CSV).
const ReadFilesRole = "pg_read_server_files"

// ReadFilesOID is pg_read_server_files' OID in PostgreSQL.
const ReadFilesOID = 4569

// FileName is the store's file in the data directory.
const FileName = "roles.json"

// maxRoleName is PostgreSQL's NAMEDATALEN-1.
const maxRoleName = 63

// Role is one role.
type Role struct {
	Name      string `json:"name"`
	OID       uint32 `json:"oid"`
	Superuser bool   `json:"superuser,omitempty"`
	Login     bool   `json:"login,omitempty"`
	// ReadFiles: the role is a member of pg_read_server_files.
	ReadFiles bool `json:"read_files,omitempty"`
	// Password is the verifier (see the package comment), "" for none.
	Password string `json:"password,omitempty"`
}

// file is the store's on-disk form.
type file struct {
	Version int    `json:"version"`
	NextOID uint32 `json:"next_oid"`
	Roles   []Role `json:"roles"`
	// Grants maps a table or view of schema public to the roles that
	// hold SELECT on it.
	Grants map[string][]string `json:"grants,omitempty"`
}

// Store is the set of roles and their table grants. It is safe for
// concurrent use. A store opened on a directory writes every change to
// its file there before the change is seen.
type Store struct {
	mu   sync.RWMutex
	dir  string // "" keeps the store in memory
	data file
	// encrypt is the form new passwords take: SCRAM, or MD5 under --auth
	// md5.
	encrypt Method
}

// firstRoleOID numbers the roles that CREATE ROLE makes.
const firstRoleOID = 16384

// Open reads the store of directory dir, or starts an empty one (only
// the bootstrap superuser) when dir has none; dir "" keeps it in memory.
// New passwords are stored in the form that method needs: md5 verifiers
// for MD5, SCRAM-SHA-256 otherwise.
func Open(dir string, method Method) (*Store, error) {
	s := &Store{dir: dir, encrypt: SCRAM}
	if method == MD5 {
		s.encrypt = MD5
	}
	s.data = file{Version: 1, NextOID: firstRoleOID,
		Roles: []Role{{Name: Bootstrap, OID: BootstrapOID, Superuser: true, Login: true}}}
	if dir == "" {
		return s, nil
	}
	b, err := os.ReadFile(filepath.Join(dir, FileName))
	if errors.Is(err, os.ErrNotExist) {
		return s, nil
	}
	if err != nil {
		return nil, err
	}
	var f file
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, fmt.Errorf("%s: %v", filepath.Join(dir, FileName), err)
	}
	if err := f.check(); err != nil {
		return nil, fmt.Errorf("%s: %v", filepath.Join(dir, FileName), err)
	}
	s.data = f
	return s, nil
}

// check validates a store read from disk.
func (f *file) check() error {
	if f.Version != 1 {
		return fmt.Errorf("unknown version %d", f.Version)
	}
	seen := map[string]bool{}
	boot := false
	for _, r := range f.Roles {
		if r.Name == "" || seen[r.Name] || r.OID == 0 {
			return fmt.Errorf("bad role %q", r.Name)
		}
		if r.Password != "" && !IsSCRAM(r.Password) && !IsMD5(r.Password) {
			return fmt.Errorf("role %q: unknown password form", r.Name)
		}
		seen[r.Name] = true
		boot = boot || r.Name == Bootstrap && r.OID == BootstrapOID && r.Superuser
		if r.OID >= f.NextOID {
			f.NextOID = r.OID + 1
		}
	}
	if !boot {
		return fmt.Errorf("the bootstrap superuser %q is missing", Bootstrap)
	}
	for t, rs := range f.Grants {
		for _, r := range rs {
			if !seen[r] {
				return fmt.Errorf("a grant on %q names unknown role %q", t, r)
			}
		}
	}
	return nil
}

// PasswordMethod is the form new passwords take.
func (s *Store) PasswordMethod() Method { return s.encrypt }

// Role returns the role named name.
func (s *Store) Role(name string) (Role, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	i := s.find(name)
	if i < 0 {
		return Role{}, false
	}
	return s.data.Roles[i], true
}

// LoginVerifier is the verifier a client connecting as name must match:
// ok is false for an unknown role or one without LOGIN, and verifier is
// "" for a role with no password.
func (s *Store) LoginVerifier(name string) (verifier string, ok bool) {
	r, found := s.Role(name)
	if !found || !r.Login {
		return "", false
	}
	return r.Password, true
}

// Roles lists the roles by OID.
func (s *Store) Roles() []Role {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := slices.Clone(s.data.Roles)
	sort.Slice(out, func(i, j int) bool { return out[i].OID < out[j].OID })
	return out
}

func (s *Store) find(name string) int {
	for i, r := range s.data.Roles {
		if r.Name == name {
			return i
		}
	}
	return -1
}

// Options are the attributes CREATE ROLE and ALTER ROLE set; nil fields
// are left as they are (CREATE: NOLOGIN, NOSUPERUSER, no password).
type Options struct {
	Login, Superuser *bool
	// Password: nil leaves it; "" (PASSWORD NULL or '') removes it.
	Password *string
}

func errNoRole(name string) error {
	return engine.Errorf(engine.CodeUndefinedObject, "role %q does not exist", name)
}

func checkRoleName(name string) error {
	switch {
	case name == "":
		return engine.Errorf(engine.CodeInvalidParameterValue, "role name must not be empty")
	case len(name) > maxRoleName:
		return engine.Errorf(engine.CodeInvalidParameterValue, "role name %q is longer than %d bytes", name, maxRoleName)
	case strings.HasPrefix(name, "pg_"):
		return engine.Errorf(engine.CodeReservedName, "role name %q is reserved", name).
			WithDetail("Role names starting with \"pg_\" are reserved.")
	case name == "public" || name == "none":
		return engine.Errorf(engine.CodeReservedName, "role name %q is reserved", name)
	}
	return nil
}

// apply sets o on r.
func (s *Store) apply(r *Role, o Options) error {
	if o.Login != nil {
		r.Login = *o.Login
	}
	if o.Superuser != nil {
		r.Superuser = *o.Superuser
	}
	if o.Password != nil {
		v, err := s.verifier(r.Name, *o.Password)
		if err != nil {
			return err
		}
		r.Password = v
	}
	return nil
}

// verifier makes the stored form of password. A password given already
// as a verifier is kept as it is, as PostgreSQL does.
func (s *Store) verifier(role, password string) (string, error) {
	switch {
	case password == "":
		return "", nil
	case IsSCRAM(password):
		if _, err := parseSCRAM(password); err != nil {
			return "", engine.Errorf(engine.CodeInvalidParameterValue, "malformed SCRAM-SHA-256 password verifier")
		}
		return password, nil
	case IsMD5(password):
		return password, nil
	case s.encrypt == MD5:
		return MD5Verifier(role, password), nil
	}
	v, err := SCRAMVerifier(password)
	if err != nil {
		return "", engine.Errorf(engine.CodeInternalError, "could not compute the password verifier: %v", err)
	}
	return v, nil
}

// Create makes a role.
func (s *Store) Create(name string, o Options) error {
	if err := checkRoleName(name); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.find(name) >= 0 {
		return engine.Errorf(engine.CodeDuplicateObject, "role %q already exists", name)
	}
	r := Role{Name: name, OID: s.data.NextOID}
	if err := s.apply(&r, o); err != nil {
		return err
	}
	next := s.data
	next.NextOID++
	next.Roles = append(slices.Clone(s.data.Roles), r)
	return s.commit(next)
}

// Alter changes a role's attributes.
func (s *Store) Alter(name string, o Options) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	i := s.find(name)
	if i < 0 {
		return errNoRole(name)
	}
	if name == Bootstrap && o.Superuser != nil && !*o.Superuser {
		return engine.Errorf(engine.CodeFeatureNotSupported, "permission denied to alter role").
			WithDetail("The bootstrap superuser %q must remain a superuser.", Bootstrap)
	}
	next := s.data
	next.Roles = slices.Clone(s.data.Roles)
	if err := s.apply(&next.Roles[i], o); err != nil {
		return err
	}
	return s.commit(next)
}

// Rename renames a role. An md5 verifier, salted with the old name, is
// cleared (renamed reports whether it was).
func (s *Store) Rename(name, to string) (cleared bool, err error) {
	if err := checkRoleName(to); err != nil {
		return false, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	i := s.find(name)
	switch {
	case i < 0:
		return false, errNoRole(name)
	case name == Bootstrap:
		return false, engine.Errorf(engine.CodeFeatureNotSupported, "the bootstrap superuser %q cannot be renamed", Bootstrap)
	case s.find(to) >= 0:
		return false, engine.Errorf(engine.CodeDuplicateObject, "role %q already exists", to)
	}
	next := s.data
	next.Roles = slices.Clone(s.data.Roles)
	r := &next.Roles[i]
	r.Name = to
	if IsMD5(r.Password) {
		r.Password, cleared = "", true
	}
	next.Grants = mapGrants(s.data.Grants, func(rs []string) []string {
		return replaceRole(rs, name, to)
	})
	return cleared, s.commit(next)
}

func replaceRole(rs []string, from, to string) []string {
	out := slices.Clone(rs)
	for k, r := range out {
		if r == from {
			out[k] = to
		}
	}
	sort.Strings(out)
	return out
}

func mapGrants(g map[string][]string, f func([]string) []string) map[string][]string {
	out := map[string][]string{}
	for t, rs := range g {
		if n := f(rs); len(n) > 0 {
			out[t] = n
		}
	}
	return out
}

// Drop drops a role. The bootstrap superuser and a role that still holds
// privileges cannot be dropped (2BP01), as in PostgreSQL.
func (s *Store) Drop(name string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	i := s.find(name)
	switch {
	case i < 0:
		return errNoRole(name)
	case name == Bootstrap:
		return engine.Errorf(engine.CodeDependentObjects, "cannot drop role %s because it is required by the database system", name)
	}
	var held []string
	for t, rs := range s.data.Grants {
		if slices.Contains(rs, name) {
			held = append(held, "privileges for table "+t)
		}
	}
	if len(held) > 0 {
		sort.Strings(held)
		return engine.Errorf(engine.CodeDependentObjects, "role %q cannot be dropped because some objects depend on it", name).
			WithDetail("%s", strings.Join(held, "\n"))
	}
	next := s.data
	next.Roles = slices.Delete(slices.Clone(s.data.Roles), i, i+1)
	return s.commit(next)
}

// SetReadFiles grants (on) or revokes pg_read_server_files.
func (s *Store) SetReadFiles(name string, on bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	i := s.find(name)
	if i < 0 {
		return errNoRole(name)
	}
	next := s.data
	next.Roles = slices.Clone(s.data.Roles)
	next.Roles[i].ReadFiles = on
	return s.commit(next)
}

// Grant gives role SELECT on table (on), or takes it back.
func (s *Store) Grant(table, role string, on bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.find(role) < 0 {
		return errNoRole(role)
	}
	rs := slices.Clone(s.data.Grants[table])
	has := slices.Contains(rs, role)
	switch {
	case on && !has:
		rs = append(rs, role)
		sort.Strings(rs)
	case !on && has:
		rs = slices.DeleteFunc(rs, func(r string) bool { return r == role })
	default:
		return nil
	}
	next := s.data
	next.Grants = mapGrants(s.data.Grants, func(x []string) []string { return x })
	if len(rs) > 0 {
		next.Grants[table] = rs
	} else {
		delete(next.Grants, table)
	}
	return s.commit(next)
}

// HasSelect reports whether role holds SELECT on table (superusers hold
// every privilege).
func (s *Store) HasSelect(role, table string) bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if i := s.find(role); i >= 0 && s.data.Roles[i].Superuser {
		return true
	}
	return slices.Contains(s.data.Grants[table], role)
}

// Grantees lists the roles that hold SELECT on table.
func (s *Store) Grantees(table string) []string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return slices.Clone(s.data.Grants[table])
}

// TableDropped forgets the grants on a dropped table, so that a new
// table of its name starts with none.
func (s *Store) TableDropped(table string) error {
	return s.moveGrants(table, "")
}

// TableRenamed moves a renamed table's grants to its new name.
func (s *Store) TableRenamed(from, to string) error {
	return s.moveGrants(from, to)
}

func (s *Store) moveGrants(from, to string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	rs, ok := s.data.Grants[from]
	if !ok {
		return nil
	}
	next := s.data
	next.Grants = mapGrants(s.data.Grants, func(x []string) []string { return x })
	delete(next.Grants, from)
	if to != "" {
		next.Grants[to] = rs
	}
	return s.commit(next)
}

// commit makes next the store's state: on disk first, crash-safely, then
// in memory. On failure nothing changes.
func (s *Store) commit(next file) error {
	if s.dir != "" {
		b, err := json.MarshalIndent(next, "", "  ")
		if err != nil {
			return engine.Errorf(engine.CodeInternalError, "encoding roles: %v", err)
		}
		if err := atomicfile.WriteBytes(filepath.Join(s.dir, FileName), append(b, '\n')); err != nil {
			return engine.Errorf(engine.CodeIOError, "could not write the role store: %v", err)
		}
	}
	s.data = next
	return nil
}

// KeepGrants drops the grants on tables for which keep is false: the
// server calls it at startup with the tables that exist, so that a grant
// never outlives its table into a new table of the same name.
func (s *Store) KeepGrants(keep func(table string) bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	stale := false
	for t := range s.data.Grants {
		stale = stale || !keep(t)
	}
	if !stale {
		return nil
	}
	next := s.data
	next.Grants = map[string][]string{}
	for t, rs := range s.data.Grants {
		if keep(t) {
			next.Grants[t] = rs
		}
	}
	return s.commit(next)
}

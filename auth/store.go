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

// WriteFilesRole is the predefined role whose members may write files
// under the file root (COPY ... TO 'file').
const WriteFilesRole = "pg_write_server_files"

// WriteFilesOID is pg_write_server_files' OID in PostgreSQL.
const WriteFilesOID = 4570

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
	// WriteFiles: the role is a member of pg_write_server_files.
	WriteFiles bool `json:"write_files,omitempty"`
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
//
// A change is an op applied to a copy of the state; the copy becomes the
// state once it is on disk. A transaction block keeps its changes as ops
// in a Tx and replays them on the state of the moment at COMMIT.
type Store struct {
	// changeMu orders the changes: it is held from reading the state a
	// change starts from until the changed state is the store's.
	changeMu sync.Mutex
	mu       sync.RWMutex // guards data
	dir      string       // "" keeps the store in memory
	data     *file        // never changed in place: a change replaces it
	version  uint64       // counts the changes
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
	s.data = &file{Version: 1, NextOID: firstRoleOID,
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
	s.data = &f
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

// State is the roles and grants at one moment. It does not change.
type State struct{ f *file }

// State is the store's committed state.
func (s *Store) State() State {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return State{s.data}
}

// Role returns the role named name.
func (st State) Role(name string) (Role, bool) {
	i := st.f.find(name)
	if i < 0 {
		return Role{}, false
	}
	return st.f.Roles[i], true
}

// Roles lists the roles by OID.
func (st State) Roles() []Role {
	out := slices.Clone(st.f.Roles)
	sort.Slice(out, func(i, j int) bool { return out[i].OID < out[j].OID })
	return out
}

// HasSelect reports whether role holds SELECT on table (superusers hold
// every privilege).
func (st State) HasSelect(role, table string) bool {
	if i := st.f.find(role); i >= 0 && st.f.Roles[i].Superuser {
		return true
	}
	return slices.Contains(st.f.Grants[table], role)
}

// Grantees lists the roles that hold SELECT on table.
func (st State) Grantees(table string) []string {
	return slices.Clone(st.f.Grants[table])
}

// Role returns the committed role named name.
func (s *Store) Role(name string) (Role, bool) { return s.State().Role(name) }

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

// Roles lists the committed roles by OID.
func (s *Store) Roles() []Role { return s.State().Roles() }

// HasSelect reports whether role holds SELECT on table, committed.
func (s *Store) HasSelect(role, table string) bool { return s.State().HasSelect(role, table) }

// Grantees lists the roles that hold SELECT on table, committed.
func (s *Store) Grantees(table string) []string { return s.State().Grantees(table) }

func (f *file) find(name string) int {
	for i, r := range f.Roles {
		if r.Name == name {
			return i
		}
	}
	return -1
}

// clone is a copy of f that an op may change.
func (f *file) clone() *file {
	out := *f
	out.Roles = slices.Clone(f.Roles)
	out.Grants = make(map[string][]string, len(f.Grants))
	for t, rs := range f.Grants {
		out.Grants[t] = slices.Clone(rs)
	}
	return &out
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

// An op is one change, made to a copy of the state (which it may change
// in place). Everything random (a password's salt) is decided before the
// op is made, so that replaying it at COMMIT makes the same change.
type op func(f *file) error

// set is how Options change a role, with its password's verifier
// computed once.
type set struct {
	login, superuser *bool
	password         *string // the verifier
}

func (s *Store) options(role string, o Options) (set, error) {
	st := set{login: o.Login, superuser: o.Superuser}
	if o.Password != nil {
		v, err := s.verifier(role, *o.Password)
		if err != nil {
			return set{}, err
		}
		st.password = &v
	}
	return st, nil
}

func (st set) apply(r *Role) {
	if st.login != nil {
		r.Login = *st.login
	}
	if st.superuser != nil {
		r.Superuser = *st.superuser
	}
	if st.password != nil {
		r.Password = *st.password
	}
}

func (s *Store) createOp(name string, o Options) (op, error) {
	if err := checkRoleName(name); err != nil {
		return nil, err
	}
	st, err := s.options(name, o)
	if err != nil {
		return nil, err
	}
	return func(f *file) error {
		if f.find(name) >= 0 {
			return engine.Errorf(engine.CodeDuplicateObject, "role %q already exists", name)
		}
		r := Role{Name: name, OID: f.NextOID}
		st.apply(&r)
		f.NextOID++
		f.Roles = append(f.Roles, r)
		return nil
	}, nil
}

func (s *Store) alterOp(name string, o Options) (op, error) {
	if name == Bootstrap && o.Superuser != nil && !*o.Superuser {
		return nil, engine.Errorf(engine.CodeFeatureNotSupported, "permission denied to alter role").
			WithDetail("The bootstrap superuser %q must remain a superuser.", Bootstrap)
	}
	st, err := s.options(name, o)
	if err != nil {
		return nil, err
	}
	return func(f *file) error {
		i := f.find(name)
		if i < 0 {
			return errNoRole(name)
		}
		st.apply(&f.Roles[i])
		return nil
	}, nil
}

// renameOp renames a role. An md5 verifier, salted with the old name, is
// cleared (*cleared says whether it was).
func renameOp(name, to string, cleared *bool) (op, error) {
	if err := checkRoleName(to); err != nil {
		return nil, err
	}
	return func(f *file) error {
		i := f.find(name)
		switch {
		case i < 0:
			return errNoRole(name)
		case name == Bootstrap:
			return engine.Errorf(engine.CodeFeatureNotSupported, "the bootstrap superuser %q cannot be renamed", Bootstrap)
		case f.find(to) >= 0:
			return engine.Errorf(engine.CodeDuplicateObject, "role %q already exists", to)
		}
		r := &f.Roles[i]
		r.Name = to
		*cleared = false
		if IsMD5(r.Password) {
			r.Password, *cleared = "", true
		}
		for t, rs := range f.Grants {
			f.Grants[t] = replaceRole(rs, name, to)
		}
		return nil
	}, nil
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

// dropOp drops a role. The bootstrap superuser and a role that still
// holds privileges cannot be dropped (2BP01), as in PostgreSQL.
func dropOp(name string) op {
	return func(f *file) error {
		i := f.find(name)
		switch {
		case i < 0:
			return errNoRole(name)
		case name == Bootstrap:
			return engine.Errorf(engine.CodeDependentObjects, "cannot drop role %s because it is required by the database system", name)
		}
		var held []string
		for t, rs := range f.Grants {
			if slices.Contains(rs, name) {
				held = append(held, "privileges for table "+t)
			}
		}
		if len(held) > 0 {
			sort.Strings(held)
			return engine.Errorf(engine.CodeDependentObjects, "role %q cannot be dropped because some objects depend on it", name).
				WithDetail("%s", strings.Join(held, "\n"))
		}
		f.Roles = slices.Delete(f.Roles, i, i+1)
		return nil
	}
}

// readFilesOp grants (on) or revokes pg_read_server_files.
func readFilesOp(name string, on bool) op {
	return func(f *file) error {
		i := f.find(name)
		if i < 0 {
			return errNoRole(name)
		}
		f.Roles[i].ReadFiles = on
		return nil
	}
}

// writeFilesOp grants (on) or revokes pg_write_server_files.
func writeFilesOp(name string, on bool) op {
	return func(f *file) error {
		i := f.find(name)
		if i < 0 {
			return errNoRole(name)
		}
		f.Roles[i].WriteFiles = on
		return nil
	}
}

// grantOp gives role SELECT on table (on), or takes it back.
func grantOp(table, role string, on bool) op {
	return func(f *file) error {
		if f.find(role) < 0 {
			return errNoRole(role)
		}
		rs := f.Grants[table]
		has := slices.Contains(rs, role)
		switch {
		case on && !has:
			rs = append(rs, role)
			sort.Strings(rs)
		case !on && has:
			rs = slices.DeleteFunc(rs, func(r string) bool { return r == role })
		}
		setGrants(f, table, rs)
		return nil
	}
}

func setGrants(f *file, table string, rs []string) {
	if len(rs) > 0 {
		f.Grants[table] = rs
	} else {
		delete(f.Grants, table)
	}
}

// moveOp moves the grants on table from to table to, or forgets them
// (to "").
func moveOp(from, to string) op {
	return func(f *file) error {
		rs, ok := f.Grants[from]
		if !ok {
			return nil
		}
		delete(f.Grants, from)
		if to != "" {
			f.Grants[to] = rs
		}
		return nil
	}
}

// restoreOp gives table the grants rs again (those of roles that still
// exist), as a rolled-back DROP VIEW or rename needs.
func restoreOp(table string, rs []string) op {
	return func(f *file) error {
		cur := f.Grants[table]
		for _, r := range rs {
			if f.find(r) >= 0 && !slices.Contains(cur, r) {
				cur = append(cur, r)
			}
		}
		sort.Strings(cur)
		setGrants(f, table, cur)
		return nil
	}
}

// change makes o's change and commits it; on failure nothing changes.
func (s *Store) change(o op, err error) error {
	if err != nil {
		return err
	}
	s.changeMu.Lock()
	defer s.changeMu.Unlock()
	next := s.State().f.clone()
	if err := o(next); err != nil {
		return err
	}
	return s.commit(next)
}

// Create makes a role.
func (s *Store) Create(name string, o Options) error { return s.change(s.createOp(name, o)) }

// Alter changes a role's attributes.
func (s *Store) Alter(name string, o Options) error { return s.change(s.alterOp(name, o)) }

// Rename renames a role. An md5 verifier, salted with the old name, is
// cleared (cleared reports whether it was).
func (s *Store) Rename(name, to string) (cleared bool, err error) {
	err = s.change(renameOp(name, to, &cleared))
	return cleared, err
}

// Drop drops a role. The bootstrap superuser and a role that still holds
// privileges cannot be dropped (2BP01), as in PostgreSQL.
func (s *Store) Drop(name string) error { return s.change(dropOp(name), nil) }

// SetReadFiles grants (on) or revokes pg_read_server_files.
func (s *Store) SetReadFiles(name string, on bool) error {
	return s.change(readFilesOp(name, on), nil)
}

// SetWriteFiles grants (on) or revokes pg_write_server_files.
func (s *Store) SetWriteFiles(name string, on bool) error {
	return s.change(writeFilesOp(name, on), nil)
}

// Grant gives role SELECT on table (on), or takes it back.
func (s *Store) Grant(table, role string, on bool) error {
	return s.change(grantOp(table, role, on), nil)
}

// TableDropped forgets the grants on a dropped table, so that a new
// table of its name starts with none.
func (s *Store) TableDropped(table string) error { return s.change(moveOp(table, ""), nil) }

// TableRenamed moves a renamed table's grants to its new name.
func (s *Store) TableRenamed(from, to string) error { return s.change(moveOp(from, to), nil) }

// RestoreGrants gives table the grants rs again (those of roles that
// still exist): what undoes TableDropped or TableRenamed.
func (s *Store) RestoreGrants(table string, rs []string) error {
	return s.change(restoreOp(table, rs), nil)
}

// commit makes next the store's state: on disk first, crash-safely, then
// in memory. On failure nothing changes. The caller holds changeMu.
func (s *Store) commit(next *file) error {
	if s.dir != "" {
		b, err := json.MarshalIndent(next, "", "  ")
		if err != nil {
			return engine.Errorf(engine.CodeInternalError, "encoding roles: %v", err)
		}
		if err := atomicfile.WriteBytes(filepath.Join(s.dir, FileName), append(b, '\n')); err != nil {
			return engine.Errorf(engine.CodeIOError, "could not write the role store: %v", err)
		}
	}
	s.mu.Lock()
	s.data = next
	s.version++
	s.mu.Unlock()
	return nil
}

// KeepGrants drops the grants on tables for which keep is false: the
// server calls it at startup with the tables that exist, so that a grant
// never outlives its table into a new table of the same name.
func (s *Store) KeepGrants(keep func(table string) bool) error {
	return s.change(func(f *file) error {
		for t := range f.Grants {
			if !keep(t) {
				delete(f.Grants, t)
			}
		}
		return nil
	}, nil)
}

// Tx is the role changes of one transaction block: the block sees them
// (State), nobody else does until Commit replays them on the store's
// state of that moment, which a ROLLBACK never does. A Tx is used by
// one session at a time.
type Tx struct {
	s   *Store
	ops []op
	// the state the block sees, cached: the store's state of version
	// ver with the first n ops replayed on it
	cache State
	ver   uint64
	n     int
}

// Begin starts the role changes of a transaction block.
func (s *Store) Begin() *Tx { return &Tx{s: s, n: -1} }

// Len is the number of changes the block made, for a savepoint.
func (t *Tx) Len() int { return len(t.ops) }

// Truncate forgets the changes after the first n (ROLLBACK TO
// SAVEPOINT).
func (t *Tx) Truncate(n int) {
	if n < len(t.ops) {
		t.ops = t.ops[:n]
		t.n = -1
	}
}

// replay is base with the ops applied; an op that no longer applies
// (another session's commit changed what it changes) fails it.
func (t *Tx) replay(base *file) (*file, error) {
	next := base.clone()
	for _, o := range t.ops {
		if err := o(next); err != nil {
			return nil, err
		}
	}
	return next, nil
}

// State is the state the block sees: the committed one with its changes.
// Where a change no longer applies to the committed state (it conflicts
// with another session's commit), the block sees the committed state
// with the changes before it; its COMMIT will fail.
func (t *Tx) State() State {
	if len(t.ops) == 0 {
		return t.s.State()
	}
	t.s.mu.RLock()
	base, ver := t.s.data, t.s.version
	t.s.mu.RUnlock()
	if t.n == len(t.ops) && t.ver == ver {
		return t.cache
	}
	next := base.clone()
	for _, o := range t.ops {
		if o(next) != nil {
			break
		}
	}
	t.cache, t.ver, t.n = State{next}, ver, len(t.ops)
	return t.cache
}

// change checks o against the state the block sees and keeps it.
func (t *Tx) change(o op, err error) error {
	if err != nil {
		return err
	}
	if err := o(t.State().f.clone()); err != nil {
		return err
	}
	t.ops = append(t.ops, o)
	return nil
}

// Commit replays the block's changes on the store's state and commits
// them, after publish (the block's other writes) succeeds: a failure of
// either leaves the store as it was. No other role change runs between
// the replay and the store's commit.
func (t *Tx) Commit(publish func() error) error {
	if len(t.ops) == 0 {
		return publish()
	}
	s := t.s
	s.changeMu.Lock()
	defer s.changeMu.Unlock()
	next, err := t.replay(s.State().f)
	if err != nil {
		return err
	}
	if err := publish(); err != nil {
		return err
	}
	t.ops = nil
	return s.commit(next)
}

// Create makes a role.
func (t *Tx) Create(name string, o Options) error { return t.change(t.s.createOp(name, o)) }

// Alter changes a role's attributes.
func (t *Tx) Alter(name string, o Options) error { return t.change(t.s.alterOp(name, o)) }

// Rename renames a role; see Store.Rename.
func (t *Tx) Rename(name, to string) (cleared bool, err error) {
	// the op writes cleared again at COMMIT's replay: a variable of its own
	c := new(bool)
	err = t.change(renameOp(name, to, c))
	return *c, err
}

// Drop drops a role; see Store.Drop.
func (t *Tx) Drop(name string) error { return t.change(dropOp(name), nil) }

// SetReadFiles grants (on) or revokes pg_read_server_files.
func (t *Tx) SetReadFiles(name string, on bool) error {
	return t.change(readFilesOp(name, on), nil)
}

// SetWriteFiles grants (on) or revokes pg_write_server_files.
func (t *Tx) SetWriteFiles(name string, on bool) error {
	return t.change(writeFilesOp(name, on), nil)
}

// Grant gives role SELECT on table (on), or takes it back.
func (t *Tx) Grant(table, role string, on bool) error {
	return t.change(grantOp(table, role, on), nil)
}

// TableDropped forgets the block's grants on a dropped table.
func (t *Tx) TableDropped(table string) error { return t.change(moveOp(table, ""), nil) }

// TableRenamed moves the block's grants on a renamed table.
func (t *Tx) TableRenamed(from, to string) error { return t.change(moveOp(from, to), nil) }

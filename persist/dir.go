// Package persist keeps a catalog's tables and views in a data directory,
// so that a restart brings them back without reading their CSV again.
//
// <data-dir>/catalog/ holds one file per table version (NNN.gtab, the
// format in format.go) and catalog.json, the manifest: the committed
// state, naming every table with its columns and file and every view.
// The manifest is the commit point. A table's new data is written to a
// file of its own (temporary name, fsync, rename, fsync of the
// directory); then the new manifest is written the same way, and only
// then are the files that the old manifest named and the new one does
// not removed. A crash at any moment leaves either the old manifest with
// all of its files or the new one with all of its; files that no manifest
// names are removed at the next start.
//
// Dir implements engine.Durable; engine.Catalog decides when to commit
// (engine/durable.go).
package persist

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/internal/atomicfile"
)

// SubDir is the directory of the data directory that Dir keeps.
const SubDir = "catalog"

// ManifestName is the manifest's file name.
const ManifestName = "catalog.json"

// LockName is the lock file's name: while a server runs it holds an
// flock on it.
const LockName = "LOCK"

const (
	manifestFormat = 1
	tableExt       = ".gtab"
	corruptExt     = ".corrupt"
)

// Dir is a catalog's durable store in a data directory.
type Dir struct {
	path string
	log  *slog.Logger
	seq  atomic.Uint64

	mu sync.Mutex
	// committed are the files the committed manifest names.
	committed map[string]bool
	// lock holds the directory's lock file, flock'ed: one server at a
	// time (two would remove each other's files).
	lock *os.File
}

var _ engine.Durable = (*Dir)(nil)

// Open opens (creating it if missing) the store in dataDir.
func Open(dataDir string, log *slog.Logger) (*Dir, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	p := filepath.Join(dataDir, SubDir)
	if err := os.MkdirAll(p, 0o755); err != nil {
		return nil, err
	}
	lock, err := os.OpenFile(filepath.Join(p, LockName), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		lock.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("%s is in use by another gpusql server", dataDir)
		}
		return nil, fmt.Errorf("locking %s: %w", p, err)
	}
	d := &Dir{path: p, log: log, committed: map[string]bool{}, lock: lock}
	ents, err := os.ReadDir(p)
	if err != nil {
		d.Close()
		return nil, err
	}
	for _, e := range ents {
		if n, ok := fileSeq(e.Name()); ok && n >= d.seq.Load() {
			d.seq.Store(n)
		}
	}
	return d, nil
}

// Close releases the directory for another server. The catalog must
// be detached first (engine.Catalog.Detach).
func (d *Dir) Close() error {
	if d.lock == nil {
		return nil
	}
	err := d.lock.Close() // closing the file releases its flock
	d.lock = nil
	return err
}

// Path is the store's directory.
func (d *Dir) Path() string { return d.path }

// fileSeq reads the number of a table file's name.
func fileSeq(name string) (uint64, bool) {
	base, ok := strings.CutSuffix(name, tableExt)
	if !ok {
		base, ok = strings.CutSuffix(name, tableExt+corruptExt)
	}
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseUint(base, 10, 64)
	return n, err == nil
}

// Save writes d's rows to a new table file and returns its name.
func (d *Dir) Save(name string, data engine.TableData) (string, error) {
	src, err := sourceOf(data)
	if err != nil {
		return "", err
	}
	file := fmt.Sprintf("%012d%s", d.seq.Add(1), tableExt)
	err = atomicfile.Write(filepath.Join(d.path, file), func(f *os.File) error { return writeTableAt(f, src) })
	if err != nil {
		return "", err
	}
	return file, nil
}

// Discard removes a file no committed state names.
func (d *Dir) Discard(file string) {
	if err := os.Remove(filepath.Join(d.path, file)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		d.log.Warn("could not remove an unused table file", "file", filepath.Join(d.path, file), "err", err)
	}
}

// Commit writes s as the manifest, then removes the files the previous
// manifest named that s does not.
func (d *Dir) Commit(s *engine.DurableState) error {
	m := toManifest(s)
	body, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	body = append(body, '\n')
	body = fmt.Appendf(body, "crc32c %08x\n", crc32.Checksum(body, castagnoli))
	path := filepath.Join(d.path, ManifestName)
	if err := atomicfile.WriteBytes(path, body); err != nil {
		var late *atomicfile.SyncError
		if !errors.As(err, &late) {
			return err
		}
		// The new manifest is in place: it is the state the next
		// start reads, so it is the state now.
		d.log.Error("the data directory could not be synced after a commit", "file", path, "err", err)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	next := map[string]bool{}
	for _, t := range m.Tables {
		if t.File != "" {
			next[t.File] = true
		}
	}
	for f := range d.committed {
		if !next[f] {
			d.Discard(f)
		}
	}
	d.committed = next
	return nil
}

// Load reads the committed state and brings its tables back through
// store (into the backend's storage: device memory on a GPU). A table
// whose file is missing, truncated or corrupt is reported in the log by
// file name and left out (a corrupt file is renamed NNN.gtab.corrupt for
// inspection), and so are the views that read it; a manifest that is
// itself corrupt is renamed catalog.json.corrupt and the catalog starts
// empty. Files no manifest names are removed. An error, such as the
// backend failing to store a table, stops the start: nothing is lost.
func (d *Dir) Load(store engine.TableStore) (nextOID uint32, tables []engine.Restored, views []*engine.View, err error) {
	m, gc, err := d.readManifest()
	if err != nil {
		return 0, nil, nil, err
	}
	release := func() {
		for _, t := range tables {
			if t.Data != nil {
				t.Data.Release()
			}
		}
	}
	// Files are read and checked by a few goroutines at once (each
	// reading its file in parallel chunks), and stored in the manifest's
	// order as they come; at most `workers` tables are held in host
	// memory at a time. A store that can copy from a file mapping
	// (engine.MappedStorer: the GPU, which copies from the page cache by
	// DMA) gets the files mapped instead of read.
	workers := min(4, runtime.GOMAXPROCS(0))
	mapped, _ := store.(engine.MappedStorer)
	results := make([]chan readResult, len(m.Tables))
	for i := range results {
		results[i] = make(chan readResult, 1)
	}
	slots, stop := make(chan struct{}, workers), make(chan struct{})
	defer close(stop)
	go func() {
		for i, te := range m.Tables {
			select {
			case slots <- struct{}{}:
			case <-stop:
				return
			}
			go func() { results[i] <- d.readEntry(te, mapped != nil) }()
		}
	}()
	missing := map[string]bool{}
	for i, te := range m.Tables {
		r := <-results[i]
		if r.err == nil && r.ok && r.h != nil {
			var data engine.TableData
			o := engine.StoreOptions{Table: te.Name}
			if r.mapping != nil {
				data, r.err = mapped.StoreMapped(r.h, r.mapping, o)
			} else {
				data, r.err = store.Store(r.h, o)
			}
			if r.err != nil {
				r.err = fmt.Errorf("storing table %q from %s: %w", te.Name, filepath.Join(d.path, te.File), r.err)
			}
			r.table.Data = data
		}
		if r.unmap != nil {
			if err := r.verify(); err != nil {
				path := filepath.Join(d.path, te.File)
				d.log.Error("table left out: its file is corrupt", "table", te.Name, "file", path, "err", err, "moved_to", path+corruptExt)
				d.moveAside(te.File)
				if r.table.Data != nil {
					r.table.Data.Release()
					r.table.Data = nil
				}
				r.ok, r.err = false, nil
			}
			r.h = nil // it aliases the mapping
			go r.unmap()
		}
		<-slots
		if r.err != nil {
			release()
			return 0, nil, nil, r.err
		}
		if !r.ok {
			missing[te.Name] = true
			continue
		}
		tables = append(tables, r.table)
	}
	views = d.restoreViews(m.Views, missing)
	d.mu.Lock()
	for _, t := range tables {
		if t.File != "" {
			d.committed[t.File] = true
		}
	}
	d.mu.Unlock()
	if gc {
		d.removeUnnamed(m)
	}
	return m.NextOID, tables, views, nil
}

// readManifest reads the manifest; gc says whether files it does not
// name may be removed (not when it was corrupt: they may be all that is
// left).
func (d *Dir) readManifest() (m *manifest, gc bool, err error) {
	path := filepath.Join(d.path, ManifestName)
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return &manifest{Format: manifestFormat}, true, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("reading %s: %w", path, err)
	}
	m, perr := parseManifest(b)
	if perr == nil {
		return m, true, nil
	}
	if errors.Is(perr, errNewer) {
		return nil, false, fmt.Errorf("%s: %w", path, perr)
	}
	aside := path + corruptExt + "-" + time.Now().UTC().Format("20060102T150405")
	d.log.Error("the catalog manifest is corrupt: starting with no tables; its table files are kept",
		"file", path, "err", perr, "moved_to", aside)
	if err := os.Rename(path, aside); err != nil {
		return nil, false, fmt.Errorf("moving the corrupt manifest %s aside: %w", path, err)
	}
	return &manifest{Format: manifestFormat}, false, nil
}

// readResult is one manifest entry read back: the table (without its
// data yet) and its rows, or ok false when it is left out.
type readResult struct {
	table engine.Restored
	h     *engine.HostTable
	ok    bool
	err   error
	sum   uint32 // the checksum of a file read
	// mapping is the file mapped, which h aliases, and unmap releases it;
	// verify checks its checksum, which runs while the store copies it
	mapping []byte
	unmap   func()
	verify  func() error
}

// readEntry reads and checks one table's file (maps it, when mapped).
func (d *Dir) readEntry(te tableEntry, mapped bool) (r readResult) {
	cols, err := te.columnDefs()
	if err != nil {
		d.log.Error("table left out: its definition in the manifest is not understood", "table", te.Name, "err", err)
		d.moveAside(te.File)
		return r
	}
	r.table.DurableTable = engine.DurableTable{Name: te.Name, OID: te.OID, Columns: cols, File: te.File, Rows: te.Rows}
	if te.File == "" {
		r.ok = true
		return r
	}
	path := filepath.Join(d.path, te.File)
	var b []byte
	var unmap func()
	if mapped {
		b, unmap, err = mapFile(path)
	} else {
		b, r.sum, err = readFile(path)
	}
	if errors.Is(err, fs.ErrNotExist) {
		d.log.Error("table left out: its file is missing", "table", te.Name, "file", path)
		return r
	}
	if err != nil {
		r.err = fmt.Errorf("reading table %q from %s: %w", te.Name, path, err)
		return r
	}
	var h *engine.HostTable
	if mapped {
		h, r.verify, err = decodeMapped(b)
	} else {
		h, err = readTableSum(b, &r.sum)
	}
	if err == nil {
		err = te.check(h)
	}
	if err != nil && unmap != nil {
		if r.verify != nil {
			_ = r.verify()
		}
		unmap()
	}
	if errors.Is(err, errNewer) {
		r.err = fmt.Errorf("table %q in %s: %w", te.Name, path, err)
		return r
	}
	if err != nil {
		d.log.Error("table left out: its file is corrupt", "table", te.Name, "file", path, "err", err, "moved_to", path+corruptExt)
		d.moveAside(te.File)
		return r
	}
	r.h, r.ok = h, true
	if unmap != nil {
		r.mapping, r.unmap = b, unmap
	}
	return r
}

// moveAside renames a table file that is left out to NNN.gtab.corrupt,
// which nothing reads or removes.
func (d *Dir) moveAside(file string) {
	if file == "" {
		return
	}
	path := filepath.Join(d.path, file)
	if err := os.Rename(path, path+corruptExt); err != nil && !errors.Is(err, fs.ErrNotExist) {
		d.log.Error("could not move a table file aside", "file", path, "err", err)
	}
}

// restoreViews rebuilds the views whose relations all came back.
func (d *Dir) restoreViews(ves []viewEntry, missing map[string]bool) []*engine.View {
	have := map[string]bool{}
	var out []*engine.View
	for changed := true; changed; {
		changed = false
		for _, ve := range ves {
			if have[ve.Name] || missing[ve.Name] {
				continue
			}
			v, err := ve.view()
			if err != nil {
				d.log.Error("view left out: its definition in the manifest is not understood", "view", ve.Name, "err", err)
				missing[ve.Name], changed = true, true
				continue
			}
			for _, dep := range v.Deps {
				if dep.Rel.Schema != "" || missing[dep.Rel.Name] {
					d.log.Error("view left out: it reads a relation that did not come back", "view", ve.Name, "relation", dep.Rel.Name)
					missing[ve.Name], changed = true, true
					break
				}
			}
			if !missing[ve.Name] {
				have[ve.Name] = true
				out = append(out, v)
			}
		}
	}
	return out
}

// removeUnnamed removes the table files and temporary files that m does
// not name: leftovers of changes that never committed.
func (d *Dir) removeUnnamed(m *manifest) {
	named := map[string]bool{}
	for _, t := range m.Tables {
		named[t.File] = true
	}
	ents, err := os.ReadDir(d.path)
	if err != nil {
		d.log.Warn("could not list the data directory", "dir", d.path, "err", err)
		return
	}
	for _, e := range ents {
		n := e.Name()
		if strings.HasPrefix(n, atomicfile.TempPrefix) || strings.HasSuffix(n, tableExt) && !named[n] {
			d.Discard(n)
		}
	}
}

// manifest is catalog.json.
type manifest struct {
	Format  int          `json:"format"`
	NextOID uint32       `json:"next_oid"`
	Tables  []tableEntry `json:"tables"`
	Views   []viewEntry  `json:"views"`
}

type tableEntry struct {
	Name    string        `json:"name"`
	OID     uint32        `json:"oid"`
	Columns []columnEntry `json:"columns"`
	File    string        `json:"file,omitempty"`
	Rows    int64         `json:"rows"`
}

type columnEntry struct {
	Name    string `json:"name"`
	Type    string `json:"type"` // as SQL shows it: for people
	Kind    string `json:"kind"`
	Prec    int    `json:"prec,omitempty"`
	Scale   int    `json:"scale,omitempty"`
	Len     int    `json:"len,omitempty"`
	NotNull bool   `json:"not_null,omitempty"`
}

type viewEntry struct {
	Name    string        `json:"name"`
	OID     uint32        `json:"oid"`
	Columns []columnEntry `json:"columns"`
	SQL     string        `json:"sql"`
	Deps    []depEntry    `json:"deps"`
}

type depEntry struct {
	Name   string `json:"name"` // as the query names it
	Schema string `json:"schema,omitempty"`
	Rel    string `json:"rel"`
}

// kindNames name the kinds in the manifest, so that its meaning does not
// hang on engine.Kind's numbering.
var kindNames = map[engine.Kind]string{
	engine.KindBool: "bool", engine.KindInt16: "int2", engine.KindInt32: "int4", engine.KindInt64: "int8",
	engine.KindFloat32: "float4", engine.KindFloat64: "float8", engine.KindNumeric: "numeric",
	engine.KindDate: "date", engine.KindTimestamp: "timestamp", engine.KindTimestampTZ: "timestamptz",
	engine.KindTime: "time", engine.KindInterval: "interval", engine.KindChar: "char",
	engine.KindVarchar: "varchar", engine.KindText: "text",
}

func toColumns(cols []engine.ColumnDef) []columnEntry {
	out := make([]columnEntry, len(cols))
	for i, c := range cols {
		out[i] = columnEntry{Name: c.Name, Type: c.Type.String(), Kind: kindNames[c.Type.Kind],
			Prec: c.Type.Prec, Scale: c.Type.Scale, Len: c.Type.Len, NotNull: c.NotNull}
	}
	return out
}

func fromColumns(ces []columnEntry) ([]engine.ColumnDef, error) {
	out := make([]engine.ColumnDef, len(ces))
	for i, ce := range ces {
		k := engine.KindInvalid
		for kk, n := range kindNames {
			if n == ce.Kind {
				k = kk
			}
		}
		if k == engine.KindInvalid {
			return nil, fmt.Errorf("column %q has unknown kind %q", ce.Name, ce.Kind)
		}
		out[i] = engine.ColumnDef{Name: ce.Name, NotNull: ce.NotNull,
			Type: engine.Type{Kind: k, Prec: ce.Prec, Scale: ce.Scale, Len: ce.Len}}
	}
	return out, nil
}

func (te tableEntry) columnDefs() ([]engine.ColumnDef, error) { return fromColumns(te.Columns) }

// check compares a table file with the manifest's entry.
func (te tableEntry) check(h *engine.HostTable) error {
	if len(h.Cols) != len(te.Columns) || h.N != te.Rows {
		return corrupt("%d rows of %d columns, the manifest says %d of %d", h.N, len(h.Cols), te.Rows, len(te.Columns))
	}
	for i, c := range h.Cols {
		if kindNames[c.Type.Kind] != te.Columns[i].Kind {
			return corrupt("column %d is of kind %q, the manifest says %q", i+1, kindNames[c.Type.Kind], te.Columns[i].Kind)
		}
	}
	return nil
}

func (ve viewEntry) view() (*engine.View, error) {
	cols, err := fromColumns(ve.Columns)
	if err != nil {
		return nil, err
	}
	v := &engine.View{Name: ve.Name, OID: ve.OID, Columns: cols, SQL: ve.SQL}
	for _, d := range ve.Deps {
		v.Deps = append(v.Deps, engine.ViewDep{Name: d.Name, Rel: engine.RelRef{Schema: d.Schema, Name: d.Rel}})
	}
	return v, nil
}

func toManifest(s *engine.DurableState) *manifest {
	m := &manifest{Format: manifestFormat, NextOID: s.NextOID, Tables: []tableEntry{}, Views: []viewEntry{}}
	for _, t := range s.Tables {
		m.Tables = append(m.Tables, tableEntry{Name: t.Name, OID: t.OID, Columns: toColumns(t.Columns), File: t.File, Rows: t.Rows})
	}
	for _, v := range s.Views {
		ve := viewEntry{Name: v.Name, OID: v.OID, Columns: toColumns(v.Columns), SQL: v.SQL, Deps: []depEntry{}}
		for _, d := range v.Deps {
			ve.Deps = append(ve.Deps, depEntry{Name: d.Name, Schema: d.Rel.Schema, Rel: d.Rel.Name})
		}
		m.Views = append(m.Views, ve)
	}
	sort.Slice(m.Tables, func(i, j int) bool { return m.Tables[i].Name < m.Tables[j].Name })
	sort.Slice(m.Views, func(i, j int) bool { return m.Views[i].Name < m.Views[j].Name })
	return m
}

// parseManifest checks the manifest's checksum line and decodes it.
func parseManifest(b []byte) (*manifest, error) {
	i := bytes.LastIndex(bytes.TrimSuffix(b, []byte("\n")), []byte("\n"))
	if i < 0 {
		return nil, errors.New("no checksum line")
	}
	body, sum := b[:i+1], strings.TrimSpace(string(b[i+1:]))
	want, ok := strings.CutPrefix(sum, "crc32c ")
	if !ok {
		return nil, errors.New("no checksum line")
	}
	if got := fmt.Sprintf("%08x", crc32.Checksum(body, castagnoli)); got != want {
		return nil, fmt.Errorf("checksum %s, the file records %s", got, want)
	}
	var m manifest
	if err := json.Unmarshal(body, &m); err != nil {
		return nil, err
	}
	if m.Format != manifestFormat {
		return nil, fmt.Errorf("%w: format %d, this gpusql reads %d", errNewer, m.Format, manifestFormat)
	}
	return &m, nil
}

package shard

import (
	"bytes"
	"fmt"

	"github.com/gpusql/gpusql/engine"
)

// pgEpochDays and pgEpochMicros move gpusql's 1970-based dates and
// timestamps to PostgreSQL's 2000-based ones, which its hashes see.
const (
	pgEpochDays   = 10957
	pgEpochMicros = int64(pgEpochDays) * 86400 * 1_000_000
)

// Key is the partition key: one column of the table.
type Key struct {
	Name  string
	Index int // position in the CSV record and the table
	Type  engine.Type
}

// value is one parsed key: an integer (integers, dates, timestamps) or
// the bytes of a string.
type value struct {
	null bool
	i    int64
	s    []byte
}

// newKey finds name among cols and checks that its type can partition.
func newKey(cols []engine.ColumnDef, name string) (Key, error) {
	for i, c := range cols {
		if c.Name != name {
			continue
		}
		switch c.Type.Kind {
		case engine.KindInt16, engine.KindInt32, engine.KindInt64, engine.KindDate, engine.KindTimestamp,
			engine.KindText, engine.KindVarchar, engine.KindChar:
			return Key{Name: name, Index: i, Type: c.Type}, nil
		}
		return Key{}, fmt.Errorf("column %q is %s: the key must be an integer, date, timestamp or string column", name, c.Type)
	}
	return Key{}, fmt.Errorf("column %q is not among the table's columns", name)
}

func (k Key) isString() bool {
	switch k.Type.Kind {
	case engine.KindText, engine.KindVarchar, engine.KindChar:
		return true
	}
	return false
}

// parse reads the key's text as the column's type. s is kept, not
// copied.
func (k Key) parse(raw []byte, null bool) (value, error) {
	if null {
		return value{null: true}, nil
	}
	var st engine.ParseStatus
	var v value
	switch k.Type.Kind {
	case engine.KindInt16, engine.KindInt32, engine.KindInt64:
		v.i, st = engine.ParseInt(raw, k.Type.Kind)
	case engine.KindDate:
		var d int32
		d, st = engine.ParseDate(raw)
		v.i = int64(d) - pgEpochDays
	case engine.KindTimestamp:
		v.i, st = engine.ParseTimestamp(raw)
		v.i -= pgEpochMicros
	case engine.KindChar:
		v.s = bytes.TrimRight(raw, " ")
	default:
		v.s = raw
	}
	if st != engine.ParseOK {
		return value{}, fmt.Errorf("%s value %q of key %s is not valid", k.Type, raw, k.Name)
	}
	return v, nil
}

// hash is the row hash PostgreSQL computes for a one-column key.
func (k Key) hash(v value) uint64 {
	if v.null {
		return 0
	}
	var h uint64
	switch k.Type.Kind {
	case engine.KindInt16, engine.KindInt32:
		h = hashInt32(int32(v.i), partitionSeed)
	case engine.KindDate:
		h = hashInt32(int32(v.i), partitionSeed)
	case engine.KindInt64, engine.KindTimestamp:
		h = hashInt64(v.i, partitionSeed)
	case engine.KindChar:
		h = hashBpchar(v.s, partitionSeed)
	default:
		h = hashText(v.s, partitionSeed)
	}
	return combine64(0, h)
}

// less orders two non-NULL keys as PostgreSQL's C collation does.
func (k Key) less(a, b value) bool {
	if k.isString() {
		return bytes.Compare(a.s, b.s) < 0
	}
	return a.i < b.i
}

// HashPartition is the REMAINDER of the partition PostgreSQL routes a row
// with this key text to, among modulus hash partitions; null is an SQL
// NULL.
func (k Key) HashPartition(raw []byte, null bool, modulus int) (int, error) {
	v, err := k.parse(raw, null)
	if err != nil {
		return 0, err
	}
	return int(k.hash(v) % uint64(modulus)), nil
}

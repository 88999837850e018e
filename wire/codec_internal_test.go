package wire

// White-box tests of the pure helpers: the binary encoders and the $n
// scanner. The protocol itself is tested black-box in wire_test.

import (
	"math/big"
	"testing"

	"github.com/jackc/pgx/v5/pgtype"
)

func TestEncodeNumericDecodesBack(t *testing.T) {
	m := pgtype.NewMap()
	for _, s := range []string{"0", "0.00", "1", "-1", "12345.67", "-0.0001", "10000", "100000000.5",
		"0.000012345", "99999999999999999999.99", "-123456789012345678901234567890.1234567890", "007.10"} {
		b, err := encodeNumeric(nil, []byte(s))
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		var n pgtype.Numeric
		if err := m.Scan(pgtype.NumericOID, pgtype.BinaryFormatCode, b, &n); err != nil {
			t.Fatalf("%s: decode: %v", s, err)
		}
		got := new(big.Rat).SetInt(n.Int)
		exp := new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(abs(n.Exp))), nil))
		if n.Exp < 0 {
			got.Quo(got, exp)
		} else {
			got.Mul(got, exp)
		}
		want, _ := new(big.Rat).SetString(s)
		if got.Cmp(want) != 0 {
			t.Errorf("%s: decoded as %s", s, got.FloatString(12))
		}
	}
	for _, s := range []string{"NaN", "Infinity", "-Infinity"} {
		b, _ := encodeNumeric(nil, []byte(s))
		var n pgtype.Numeric
		if err := m.Scan(pgtype.NumericOID, pgtype.BinaryFormatCode, b, &n); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		if (s == "NaN") != n.NaN || (s == "Infinity") != (n.InfinityModifier == pgtype.Infinity) {
			t.Errorf("%s: decoded as %+v", s, n)
		}
	}
	for _, s := range []string{"", "-", "1e5", "1.2.3", "abc", "--1"} {
		if _, err := encodeNumeric(nil, []byte(s)); err == nil {
			t.Errorf("%q: want an error", s)
		}
	}
}

func abs(x int32) int32 {
	if x < 0 {
		return -x
	}
	return x
}

func TestHasParams(t *testing.T) {
	for sql, want := range map[string]bool{
		"select $1":                         true,
		"select 1 where a = $12":            true,
		"select '$1'":                       false,
		"select 'it''s $1'":                 false,
		`select E'\' $1'`:                   false,
		`select "$1" from t`:                false,
		"select a$1 from t":                 false,
		"select $$ $1 $$":                   false,
		"select $tag$ $1 $tag$, $2":         true,
		"select 1 -- $1":                    false,
		"select /* $1 /* nested */ $2 */ 1": false,
		"select 1 /* unterminated $1":       false,
		"select $":                          false,
	} {
		if got := hasParams(sql); got != want {
			t.Errorf("hasParams(%q) = %v, want %v", sql, got, want)
		}
	}
}

func TestReadsData(t *testing.T) {
	for sql, want := range map[string]bool{
		"SELECT 1": true, "  (select 1)": true, "-- c\nWITH x AS (select 1) select * from x": true,
		"/* c */ values (1)": true, "show all": true, "create table t (a int)": false, "copy t from 'f'": false, "": false,
	} {
		if got := readsData(sql); got != want {
			t.Errorf("readsData(%q) = %v, want %v", sql, got, want)
		}
	}
}

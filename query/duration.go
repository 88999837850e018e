package query

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Time-valued settings (statement_timeout,
// client_connection_check_interval) are milliseconds, written as
// PostgreSQL writes them: a number alone is milliseconds, or a number
// with a unit of us, ms, s, min, h or d ('250ms', '1.5 s', '2min').

var durationUnits = []struct {
	name string
	ms   float64
}{{"us", 0.001}, {"ms", 1}, {"s", 1000}, {"min", 60000}, {"h", 3600000}, {"d", 86400000}}

// parseMillis parses a time setting into whole milliseconds (rounded, as
// PostgreSQL rounds). ok is false for anything else, negatives included.
func parseMillis(v string) (ms int64, ok bool) {
	v = strings.TrimSpace(v)
	i := 0
	for i < len(v) && (v[i] >= '0' && v[i] <= '9' || v[i] == '.') {
		i++
	}
	num, unit := v[:i], strings.TrimSpace(v[i:])
	f, err := strconv.ParseFloat(num, 64)
	if num == "" || err != nil {
		return 0, false
	}
	scale := 1.0
	if unit != "" {
		found := false
		for _, u := range durationUnits {
			if unit == u.name {
				scale, found = u.ms, true
			}
		}
		if !found {
			return 0, false
		}
	}
	f = math.Round(f * scale)
	if f > math.MaxInt32 { // PostgreSQL's limit for these settings
		return 0, false
	}
	return int64(f), true
}

// formatMillis writes ms in the largest unit that divides it, as SHOW
// does ("0", "250ms", "1s", "2min").
func formatMillis(ms int64) string {
	if ms == 0 {
		return "0"
	}
	for i := len(durationUnits) - 1; i >= 1; i-- {
		u := int64(durationUnits[i].ms)
		if ms%u == 0 {
			return fmt.Sprintf("%d%s", ms/u, durationUnits[i].name)
		}
	}
	return fmt.Sprintf("%dms", ms)
}

// settingDuration reads a time setting; an unparsable value (which SET
// refuses) reads as 0.
func (s *Session) settingDuration(name string) time.Duration {
	ms, ok := parseMillis(s.setting(name))
	if !ok {
		return 0
	}
	return time.Duration(ms) * time.Millisecond
}

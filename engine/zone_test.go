package engine

import "testing"

func mustZone(t *testing.T, name string) *Zone {
	t.Helper()
	z, err := LookupZone(name)
	if err != nil {
		t.Fatalf("LookupZone(%q): %v", name, err)
	}
	return z
}

func ts(t *testing.T, s string) int64 {
	t.Helper()
	v, st := ParseTimestamp([]byte(s))
	if st != ParseOK {
		t.Fatalf("ParseTimestamp(%q): %v", s, st)
	}
	return v
}

// The expected values are PostgreSQL 15's.
func TestZoneConversions(t *testing.T) {
	cases := []struct {
		zone, local, utc string
	}{
		{"Europe/Berlin", "2024-07-01 14:00:00", "2024-07-01 12:00:00"},
		{"Europe/Berlin", "2024-01-01 13:00:00", "2024-01-01 12:00:00"},
		{"Europe/Berlin", "2024-03-31 02:30:00", "2024-03-31 01:30:00"}, // gap: the offset before
		{"Europe/Berlin", "2024-10-27 02:30:00", "2024-10-27 01:30:00"}, // overlap: the offset after
		{"America/New_York", "2024-03-10 02:30:00", "2024-03-10 07:30:00"},
		{"America/New_York", "2024-11-03 01:30:00", "2024-11-03 06:30:00"},
		{"america/new_york", "2024-07-01 08:00:00", "2024-07-01 12:00:00"},
		{"+05", "2024-07-01 12:00:00", "2024-07-01 17:00:00"}, // POSIX: west
		{"-03:30", "2024-07-01 12:00:00", "2024-07-01 08:30:00"},
		{"UTC+5", "2024-07-01 12:00:00", "2024-07-01 17:00:00"},
		{"EST", "2024-07-01 12:00:00", "2024-07-01 17:00:00"},
		{"CET", "2024-07-01 12:00:00", "2024-07-01 11:00:00"},  // the abbreviation, fixed
		{":CET", "2024-07-01 12:00:00", "2024-07-01 10:00:00"}, // the zone
		{"<+05>-05", "2024-07-01 12:00:00", "2024-07-01 07:00:00"},
		{"Etc/GMT+2", "2024-07-01 12:00:00", "2024-07-01 14:00:00"},
		{"PST8PDT", "2024-07-01 12:00:00", "2024-07-01 19:00:00"},
		{"z", "2024-07-01 12:00:00", "2024-07-01 12:00:00"},
		{"IST", "2024-07-01 12:00:00", "2024-07-01 10:00:00"},
		{"Asia/Kolkata", "2024-07-01 12:00:00", "2024-07-01 06:30:00"},
	}
	for _, c := range cases {
		z := mustZone(t, c.zone)
		local, utc := ts(t, c.local), ts(t, c.utc)
		if got := z.FromLocal(local); got != utc {
			t.Errorf("%s: FromLocal(%s) = %s, want %s", c.zone, c.local, AppendTimestamp(nil, got), c.utc)
		}
	}
	berlin := mustZone(t, "Europe/Berlin")
	if got := string(AppendTimestampTZ(nil, ts(t, "1850-01-01 12:00:00"), berlin)); got != "1850-01-01 12:53:28+00:53:28" {
		t.Errorf("LMT: %s", got)
	}
	if got := string(AppendTimestampTZ(nil, ts(t, "2024-03-10 07:30:00"), mustZone(t, "America/New_York"))); got != "2024-03-10 03:30:00-04" {
		t.Errorf("New York: %s", got)
	}
	if got := string(AppendTimestampTZ(nil, int64(DaysFromCivil(0, 12, 31))*usPerDay+1, UTCZone)); got != "0001-12-31 00:00:00.000001+00 BC" {
		t.Errorf("BC: %s", got)
	}
	for _, bad := range []string{"foo", "5", "Europe/Nowhere", ""} {
		if _, err := LookupZone(bad); err == nil {
			t.Errorf("LookupZone(%q) succeeded", bad)
		}
	}
}

func TestSessionZone(t *testing.T) {
	cases := map[string]string{
		"0": "<+00>-00", "5": "<+05>-05", "-3.5": "<-03:30>+03:30", "+05": "<+05>-05", "-03:30": "-03:30",
		"UTC": "UTC", "europe/berlin": "Europe/Berlin", "EST": "EST", "CET": "CET", "UTC+5": "UTC+5",
		"utc": "UTC", "Etc/GMT+2": "Etc/GMT+2", "GMT": "GMT", "<+05>-05": "<+05>-05",
	}
	for in, want := range cases {
		z, err := SessionZone(in)
		if err != nil {
			t.Errorf("SessionZone(%q): %v", in, err)
			continue
		}
		if z.Name != want {
			t.Errorf("SessionZone(%q).Name = %q, want %q", in, z.Name, want)
		}
		// the zone's Ref reads back as the same zone
		back := mustZone(t, z.Ref())
		for _, s := range []string{"2024-01-15 12:00:00", "2024-07-15 12:00:00"} {
			if a, b := z.ToLocal(ts(t, s)), back.ToLocal(ts(t, s)); a != b {
				t.Errorf("%q: Ref %q differs at %s", in, z.Ref(), s)
			}
		}
	}
	for _, bad := range []string{"Z", "IST", "foo"} {
		if _, err := SessionZone(bad); err == nil {
			t.Errorf("SessionZone(%q) succeeded", bad)
		}
	}
	if z, _ := SessionZone("-03:30"); string(AppendTimestampTZ(nil, ts(t, "2024-07-01 12:00:00"), z)) != "2024-07-01 15:30:00+03:30" {
		t.Errorf("POSIX session zone")
	}
}

func TestParseTimestampTZ(t *testing.T) {
	berlin := mustZone(t, "Europe/Berlin")
	cases := []struct{ in, want string }{
		{"2024-03-01 12:00:00+02", "2024-03-01 10:00:00+00"},
		{"2024-03-01T10:00:00Z", "2024-03-01 10:00:00+00"},
		{"2024-03-01 10:00 EST", "2024-03-01 15:00:00+00"},
		{"2024-07-01 10:00 Europe/Berlin", "2024-07-01 08:00:00+00"},
		{"2024-07-01 10:00 CET", "2024-07-01 09:00:00+00"},
		{"2024-07-01 10:00+0530", "2024-07-01 04:30:00+00"},
		{"2024-07-01 10:00:00.25-03:30", "2024-07-01 13:30:00.25+00"},
		{"2024-07-01", "2024-06-30 22:00:00+00"}, // midnight in the session zone
		{"2024-01-01 12:00", "2024-01-01 11:00:00+00"},
		{" 2024-03-31 02:30 ", "2024-03-31 01:30:00+00"},
		{"epoch", "1970-01-01 00:00:00+00"},
	}
	for _, c := range cases {
		v, st := ParseTimestampTZ([]byte(c.in), berlin)
		if st != ParseOK {
			t.Errorf("%q: %v", c.in, st)
			continue
		}
		if got := string(AppendTimestampTZ(nil, v, UTCZone)); got != c.want {
			t.Errorf("%q: %s, want %s", c.in, got, c.want)
		}
	}
	for _, bad := range []string{"2024-01-01 10:00 +16", "2024-01-01 10:00 Nowhere", "x", "2024-01-01 10:00 +"} {
		if _, st := ParseTimestampTZ([]byte(bad), berlin); st == ParseOK {
			t.Errorf("%q parsed", bad)
		}
	}
	if e := InputError(TimestampTZ, ParseOutOfRange, []byte("2024-01-01 10:00 +16")); e.Code != CodeInvalidTimeZoneDisplacement {
		t.Errorf("displacement error: %v", e)
	}
}

func TestParseTime(t *testing.T) {
	cases := map[string]string{"24:00": "24:00:00", "12:00:00.5+02": "12:00:00.5", "2024-01-01 13:14": "13:14:00",
		"00:00:00.000001": "00:00:00.000001", "allballs": "00:00:00", " 7:05 ": "07:05:00"}
	for in, want := range cases {
		v, st := ParseTime([]byte(in))
		if st != ParseOK {
			t.Errorf("%q: %v", in, st)
			continue
		}
		if got := string(AppendTime(nil, v)); got != want {
			t.Errorf("%q: %s, want %s", in, got, want)
		}
	}
	for _, bad := range []string{"25:00", "12:60", "x", "24:00:01", "12"} {
		if _, st := ParseTime([]byte(bad)); st == ParseOK {
			t.Errorf("%q parsed", bad)
		}
	}
}

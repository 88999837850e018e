package query

import (
	"strings"

	"github.com/gpusql/gpusql/engine"
	"github.com/gpusql/gpusql/query/parse"
)

// defaultSettings are the run-time parameters a session can SHOW and SET,
// with their defaults. Clients set several of these on connect.
var defaultSettings = map[string]string{
	"application_name":                    "",
	"client_encoding":                     "UTF8",
	"client_min_messages":                 "notice",
	"datestyle":                           "ISO, MDY",
	"default_transaction_isolation":       "read committed",
	"extra_float_digits":                  "1",
	"integer_datetimes":                   "on",
	"intervalstyle":                       "postgres",
	"search_path":                         `"$user", public`,
	"server_encoding":                     "UTF8",
	"standard_conforming_strings":         "on",
	"statement_timeout":                   "0",
	"idle_session_timeout":                "0",
	"idle_in_transaction_session_timeout": "0",
	"timezone":                            "UTC",
	"transaction_isolation":               "read committed",
	"lc_collate":                          "C",
	"lc_ctype":                            "C",
	"max_identifier_length":               "63",
	"max_index_keys":                      "32", // pgJDBC reads it (getImportedKeys)
	"bytea_output":                        "hex",
	// Set by pg_dump; accepted and shown, with no effect on gpusql.
	"synchronize_seqscans":          "on",
	"lock_timeout":                  "0",
	"row_security":                  "on",
	"default_transaction_read_only": "off",
	"transaction_read_only":         "off",
	"quote_all_identifiers":         "off",
	"default_table_access_method":   "heap",
	"check_function_bodies":         "on",
	"xmloption":                     "content",
}

// readOnlySettings are the settings SET and set_config refuse to change
// (PostgreSQL's internal ones, and gpusql's).
var readOnlySettings = map[string]bool{
	"server_version": true, "server_encoding": true, "integer_datetimes": true, "lc_collate": true, "lc_ctype": true,
	"max_identifier_length": true, "max_index_keys": true, "gpusql.device": true, "gpusql.version": true,
	"gpusql.file_root": true, "is_superuser": true,
}

// settingNames maps lower-case names to PostgreSQL's spelling for SHOW.
var settingNames = map[string]string{
	"datestyle": "DateStyle", "intervalstyle": "IntervalStyle", "timezone": "TimeZone",
}

// Setting is a parameter's current value (engine.SettingReader).
func (s *Session) Setting(name string) string { return s.setting(name) }

func (s *Session) setting(name string) string {
	name = strings.ToLower(name)
	if name == "transaction_isolation" {
		// What gpusql gives, whatever level was asked for (tx.go).
		return "read committed"
	}
	if v, ok := s.settings[name]; ok {
		return v
	}
	if v, ok := s.client[name]; ok {
		return v
	}
	switch name {
	case "server_version":
		return PGVersion
	case "gpusql.device":
		return s.srv.backend.Name()
	case "gpusql.version":
		return Version
	case "gpusql.file_root":
		return s.srv.opts.FileRoot
	case "client_connection_check_interval":
		return formatMillis(s.srv.opts.ClientCheckInterval.Milliseconds())
	case "statement_timeout":
		return formatMillis(s.srv.opts.StatementTimeout.Milliseconds())
	case "idle_session_timeout":
		return formatMillis(s.srv.opts.IdleSessionTimeout.Milliseconds())
	case "idle_in_transaction_session_timeout":
		return formatMillis(s.srv.opts.IdleInTxTimeout.Milliseconds())
	case "is_superuser":
		if s.superuser() {
			return "on"
		}
		return "off"
	}
	return defaultSettings[name]
}

func (s *Session) known(name string) bool {
	name = strings.ToLower(name)
	if _, ok := defaultSettings[name]; ok {
		return true
	}
	switch name {
	case "server_version", "gpusql.device", "gpusql.version", "gpusql.file_root", "client_connection_check_interval", "is_superuser":
		return true
	}
	return false
}

func (s *Session) set(st *parse.Set, w engine.ResultWriter) error {
	name := strings.ToLower(st.Name)
	if readOnlySettings[name] {
		return engine.Errorf(engine.CodeCantChangeRuntimeParam, "parameter %q cannot be changed", name)
	}
	if !s.known(name) && !strings.Contains(name, ".") {
		return engine.Errorf(engine.CodeUndefinedObject, "unrecognized configuration parameter %q", name)
	}
	v := st.Value
	switch name {
	case "client_encoding":
		u := strings.ToUpper(strings.ReplaceAll(v, "-", ""))
		if u != "UTF8" && u != "UNICODE" {
			return engine.Errorf(engine.CodeFeatureNotSupported, "client encoding %q is not supported: gpusql speaks UTF8 only", v)
		}
		v = "UTF8"
	case "statement_timeout", "client_connection_check_interval", "idle_session_timeout", "idle_in_transaction_session_timeout":
		ms, ok := parseMillis(v)
		if !ok {
			return engine.Errorf(engine.CodeInvalidParameterValue, "invalid value for parameter \"%s\": \"%s\"", name, v).
				WithHint("Valid units for this parameter are \"us\", \"ms\", \"s\", \"min\", \"h\", and \"d\".")
		}
		v = formatMillis(ms)
	case "timezone":
		z, err := canonicalZone(v)
		if err != nil {
			return err
		}
		v = z
	}
	if st.Local && !s.inBlock() {
		// As PostgreSQL: a warning, and no effect.
		_ = w.Notice(engine.Notice{Severity: "WARNING", Code: engine.CodeNoActiveSQLTransaction,
			Message: "SET LOCAL can only be used in transaction blocks"})
		return w.Complete("SET")
	}
	s.setValue(name, v, false, st.Local)
	return w.Complete("SET")
}

// localPrev is a setting's session value before a block's SET LOCAL,
// which COMMIT restores.
type localPrev struct {
	value string
	had   bool
}

// setValue sets (or with del, resets) a session setting as a statement
// does. In a transaction block the change is undone when the block, or
// the savepoint since, rolls back; a SET LOCAL's (local) also ends with
// the block's COMMIT, unless a plain SET of the name follows it.
func (s *Session) setValue(name, v string, del, local bool) {
	if s.inBlock() {
		prev, had := s.settings[name]
		lprev, lhad := s.tx.local[name]
		s.tx.undo = append(s.tx.undo, func() {
			if had {
				s.settings[name] = prev
			} else {
				delete(s.settings, name)
			}
			if lhad {
				s.tx.local[name] = lprev
			} else {
				delete(s.tx.local, name)
			}
		})
		switch {
		case local && !lhad:
			if s.tx.local == nil {
				s.tx.local = map[string]localPrev{}
			}
			s.tx.local[name] = localPrev{prev, had}
		case !local:
			delete(s.tx.local, name)
		}
	}
	if del {
		delete(s.settings, name)
	} else {
		s.settings[name] = v
	}
}

// endLocalSettings restores the settings a committed block set with SET
// LOCAL.
func (s *Session) endLocalSettings() {
	for name, p := range s.tx.local {
		if p.had {
			s.settings[name] = p.value
		} else {
			delete(s.settings, name)
		}
	}
	s.tx.local = nil
}

func (s *Session) reset(st *parse.Reset, w engine.ResultWriter) error {
	if strings.EqualFold(st.Name, "all") {
		for name := range s.settings {
			s.setValue(name, "", true, false)
		}
	} else {
		s.setValue(strings.ToLower(st.Name), "", true, false)
	}
	if t := strings.TrimSpace(st.Text); len(t) >= 3 && strings.EqualFold(t[:3], "set") {
		return w.Complete("SET") // SET x TO DEFAULT, SET TIME ZONE LOCAL
	}
	return w.Complete("RESET")
}

func (s *Session) showColumns(name string) []engine.ResultColumn {
	if strings.EqualFold(name, "all") {
		return []engine.ResultColumn{textColumn("name"), textColumn("setting"), textColumn("description")}
	}
	n := strings.ToLower(name)
	if p, ok := settingNames[n]; ok {
		n = p
	}
	return []engine.ResultColumn{textColumn(n)}
}

func textColumn(name string) engine.ResultColumn {
	return engine.ResultColumn{Name: name, TypeOID: engine.OIDText, TypLen: -1, Typmod: -1}
}

func (s *Session) show(st *parse.Show, w engine.ResultWriter) error {
	name := strings.ToLower(st.Name)
	if name == "all" {
		if err := w.Describe(s.showColumns("all")); err != nil {
			return err
		}
		for _, n := range s.settingNames() {
			if err := w.Row([][]byte{[]byte(n), []byte(s.setting(n)), nil}); err != nil {
				return err
			}
		}
		return w.Complete("SHOW")
	}
	if !s.known(name) {
		if _, ok := s.settings[name]; !ok {
			return engine.Errorf(engine.CodeUndefinedObject, "unrecognized configuration parameter %q", name)
		}
	}
	if err := w.Describe(s.showColumns(name)); err != nil {
		return err
	}
	if err := w.Row([][]byte{[]byte(s.setting(name))}); err != nil {
		return err
	}
	return w.Complete("SHOW")
}

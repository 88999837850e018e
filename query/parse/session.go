package parse

import "strings"

// parseSet parses SET [SESSION | LOCAL] name {= | TO} value [, ...],
// SET name TO DEFAULT (a Reset), SET TIME ZONE value, SET SCHEMA 'x' and
// SET NAMES 'x'.
func parseSet(c *cursor, text string) (Stmt, error) {
	c.word("set")
	local := false
	if c.word("local") {
		local = true
	} else {
		c.word("session")
	}
	var name string
	switch {
	case c.words("time", "zone"):
		name = "timezone"
		if c.word("local") || c.word("default") {
			return &Reset{Text: text, Name: name}, c.finish()
		}
		if n := c.peek(); n != nil && n.word("interval") {
			return nil, notSupported(c.src, n.tok, "SET TIME ZONE INTERVAL is not supported by gpusql")
		}
	case c.word("schema"):
		name = "search_path"
	case c.word("names"):
		name = "client_encoding"
	case c.word("transaction"):
		iso, err := transactionModes(c)
		return &Transaction{Text: text, Kind: "SET TRANSACTION", Isolation: iso}, err
	case c.words("characteristics", "as", "transaction"):
		iso, err := transactionModes(c)
		return &Transaction{Text: text, Kind: "SET CHARACTERISTICS", Isolation: iso}, err
	default:
		if n := c.peek(); n != nil {
			for _, w := range []string{"role", "constraints", "authorization"} {
				if n.word(w) {
					return nil, notSupported(c.src, n.tok, "SET "+strings.ToUpper(w)+" is not supported by gpusql")
				}
			}
		}
		var err error
		if name, err = settingName(c); err != nil {
			return nil, err
		}
		if !c.word("to") && !c.op("=") {
			return nil, c.fail()
		}
		if c.word("default") {
			return &Reset{Text: text, Name: name}, c.finish()
		}
	}
	value, err := settingValue(c)
	if err != nil {
		return nil, err
	}
	return &Set{Text: text, Name: name, Value: value, Local: local}, nil
}

// settingName reads a configuration parameter name, possibly dotted
// (myapp.setting).
func settingName(c *cursor) (string, error) {
	n := c.next()
	if n == nil || n.group || n.tok.kind != kIdent && n.tok.kind != kQIdent {
		return "", syntaxErr(c.src, tokOr(n, c.end))
	}
	name := strings.ToLower(n.tok.text) // parameter names are case-insensitive
	for c.op(".") {
		p := c.next()
		if p == nil || p.group || p.tok.kind != kIdent && p.tok.kind != kQIdent {
			return "", syntaxErr(c.src, tokOr(p, c.end))
		}
		name += "." + strings.ToLower(p.tok.text)
	}
	return name, nil
}

// settingValue reads the rest of SET as a comma-separated list of strings,
// words and signed numbers, joined by ", " as PostgreSQL flattens them.
func settingValue(c *cursor) (string, error) {
	var parts []string
	for {
		n := c.next()
		if n == nil || n.group {
			return "", syntaxErr(c.src, tokOr(n, c.end))
		}
		switch {
		case n.tok.kind == kString || n.tok.kind == kIdent || n.tok.kind == kQIdent || n.tok.kind == kNumber:
			parts = append(parts, n.tok.text)
		case n.op("-") || n.op("+"):
			num := c.next()
			if num == nil || num.group || num.tok.kind != kNumber {
				return "", syntaxErr(c.src, tokOr(num, c.end))
			}
			sign := n.tok.text
			if sign == "+" {
				sign = ""
			}
			parts = append(parts, sign+num.tok.text)
		default:
			return "", syntaxErr(c.src, n.tok)
		}
		if c.done() {
			return strings.Join(parts, ", "), nil
		}
		if !c.op(",") {
			return "", c.fail()
		}
	}
}

// parseShow parses SHOW name | ALL | TIME ZONE | TRANSACTION ISOLATION
// LEVEL | SESSION AUTHORIZATION.
func parseShow(c *cursor, text string) (Stmt, error) {
	c.word("show")
	name, err := settingTarget(c)
	if err != nil {
		return nil, err
	}
	return &Show{Text: text, Name: name}, c.finish()
}

// parseReset parses RESET name | ALL | TIME ZONE | SESSION AUTHORIZATION.
func parseReset(c *cursor, text string) (Stmt, error) {
	c.word("reset")
	name, err := settingTarget(c)
	if err != nil {
		return nil, err
	}
	return &Reset{Text: text, Name: name}, c.finish()
}

// settingTarget reads the parameter of SHOW or RESET.
func settingTarget(c *cursor) (string, error) {
	switch {
	case c.words("time", "zone"):
		return "timezone", nil
	case c.words("transaction", "isolation", "level"):
		return "transaction_isolation", nil
	case c.words("session", "authorization"):
		return "session_authorization", nil
	}
	return settingName(c)
}

// parseTransaction parses BEGIN [WORK | TRANSACTION] [modes], START
// TRANSACTION [modes], COMMIT | END [WORK | TRANSACTION] [AND NO CHAIN],
// and ROLLBACK | ABORT [WORK | TRANSACTION] [AND NO CHAIN].
func parseTransaction(c *cursor, text string) (Stmt, error) {
	first := c.next().tok
	switch first.text {
	case "savepoint":
		name, err := c.ident()
		if err != nil {
			return nil, err
		}
		return &Transaction{Text: text, Kind: "SAVEPOINT", Name: name}, c.finish()
	case "release":
		c.word("savepoint")
		name, err := c.ident()
		if err != nil {
			return nil, err
		}
		return &Transaction{Text: text, Kind: "RELEASE", Name: name}, c.finish()
	case "begin", "start":
		if first.text == "start" {
			if err := c.expect("transaction"); err != nil {
				return nil, err
			}
		} else if !c.word("work") {
			c.word("transaction")
		}
		iso, err := transactionModes(c)
		if err != nil {
			return nil, err
		}
		return &Transaction{Text: text, Kind: "BEGIN", Isolation: iso}, nil
	}
	kind := "COMMIT"
	if first.text == "rollback" || first.text == "abort" {
		kind = "ROLLBACK"
	}
	if n := c.peek(); n != nil && n.word("prepared") {
		return nil, notSupported(c.src, n.tok, strings.ToUpper(first.text)+" "+strings.ToUpper(n.tok.text)+" is not supported by gpusql")
	}
	if !c.word("work") {
		c.word("transaction")
	}
	if kind == "ROLLBACK" && c.word("to") {
		c.word("savepoint")
		name, err := c.ident()
		if err != nil {
			return nil, err
		}
		return &Transaction{Text: text, Kind: "ROLLBACK TO", Name: name}, c.finish()
	}
	if n := c.peek(); n != nil && n.word("and") {
		if c.words("and", "no", "chain") {
			return &Transaction{Text: text, Kind: kind}, c.finish()
		}
		if c.words("and", "chain") {
			return nil, notSupported(c.src, n.tok, "AND CHAIN is not supported by gpusql")
		}
	}
	return &Transaction{Text: text, Kind: kind}, c.finish()
}

// transactionModes reads the modes of BEGIN and SET TRANSACTION and
// returns the isolation level given ("" if none). The access mode and
// DEFERRABLE are accepted and have no effect.
func transactionModes(c *cursor) (string, error) {
	iso := ""
	for !c.done() {
		switch {
		case c.words("isolation", "level"):
			switch {
			case c.word("serializable"):
				iso = "serializable"
			case c.words("repeatable", "read"):
				iso = "repeatable read"
			case c.words("read", "committed"):
				iso = "read committed"
			case c.words("read", "uncommitted"):
				iso = "read uncommitted"
			default:
				return "", c.fail()
			}
		case c.words("read", "write"), c.words("read", "only"), c.word("deferrable"), c.words("not", "deferrable"):
		default:
			return "", c.fail()
		}
		if !c.done() {
			c.op(",")
		}
	}
	return iso, nil
}

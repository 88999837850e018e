package parse

// Rewrite returns the text that Parse hands to tidb for one SELECT.
func Rewrite(sql string) (string, error) {
	toks, err := lex(sql)
	if err != nil {
		return "", err
	}
	end := toks[len(toks)-1]
	items, err := tree(sql, toks[:len(toks)-1], end)
	if err != nil {
		return "", err
	}
	out, _, err := rewrite(sql, items, end)
	return out, err
}

package gpu

// RegexPatterns and RegexStrings are regex_test.go's tables, for the
// device test (package gpu_test).
var (
	RegexPatterns = regexPatterns
	RegexStrings  = regexStrings
)

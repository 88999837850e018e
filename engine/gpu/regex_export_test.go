package gpu

// RegexPatterns and RegexStrings are regex_test.go's tables, for the
// device test (package gpu_test).
var (
	RegexPatterns = regexPatterns
	RegexStrings  = regexStrings
)

// RaceEnabled tells the device tests (package gpu_test) that the race
// detector is on (race_on_test.go).
const RaceEnabled = raceEnabled

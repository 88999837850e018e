package engine

import (
	"errors"
	"fmt"
)

// SQLSTATE codes used by gpusql. This is the one catalog: every error that
// reaches a client carries one of these.
const (
	CodeSuccessfulCompletion    = "00000"
	CodeWarning                 = "01000"
	CodeFeatureNotSupported     = "0A000"
	CodeCardinalityViolation    = "21000"
	CodeDataException           = "22000"
	CodeStringDataRightTrunc    = "22001"
	CodeNumericValueOutOfRange  = "22003"
	CodeNullValueNotAllowed     = "22004"
	CodeInvalidDatetimeFormat   = "22007"
	CodeDatetimeFieldOverflow   = "22008"
	CodeIntervalFieldOverflow   = "22015"
	CodeDivisionByZero          = "22012"
	CodeCharacterNotInRepertoir = "22021"
	CodeInvalidParameterValue   = "22023"
	CodeBadCopyFileFormat       = "22P04"
	CodeInvalidTextRepresent    = "22P02"
	CodeInvalidBinaryRepresent  = "22P03"
	CodeUntranslatableCharacter = "22P05"
	CodeNotNullViolation        = "23502"
	CodeDependentObjects        = "2BP01" // dependent_objects_still_exist
	CodeInvalidRecursion        = "42P17" // invalid_object_definition: a view that reads itself
	CodeRecursiveQuery          = "42P19" // invalid_recursion: an ill-formed WITH RECURSIVE self-reference
	CodeInvalidTransactionState = "25000"
	CodeActiveSQLTransaction    = "25001"
	CodeNoActiveSQLTransaction  = "25P01"
	CodeInFailedTransaction     = "25P02"
	CodeInvalidSavepointSpec    = "3B001"
	CodeSerializationFailure    = "40001"
	CodeInvalidCursorName       = "34000"
	CodeInvalidSQLStatementName = "26000"
	CodeDuplicateCursor         = "42P03"
	CodeDuplicatePreparedStmt   = "42P05"
	CodeUndefinedParameter      = "42P02"
	CodeInvalidSchemaName       = "3F000"
	CodeInvalidCatalogName      = "3D000" // a database that does not exist
	CodeLimitMustNotBeNegative  = "2201W"
	CodeInvalidWindowFrameSize  = "22013" // invalid_preceding_or_following_size
	CodeInvalidArgForNtile      = "22014"
	CodeInvalidArgForNthValue   = "22016"
	CodeSyntaxError             = "42601"
	CodeInsufficientPrivilege   = "42501"
	CodeGroupingError           = "42803"
	CodeWindowingError          = "42P20"
	CodeDatatypeMismatch        = "42804"
	CodeIndeterminateCollation  = "42P22"
	CodeCannotCoerce            = "42846"
	CodeSubstringError          = "22011"
	CodeInvalidEscapeSequence   = "22025"
	CodeInvalidRegularExpr      = "2201B"
	CodeUndefinedColumn         = "42703"
	CodeUndefinedFunction       = "42883"
	CodeAmbiguousFunction       = "42725"
	CodeUndefinedTable          = "42P01"
	CodeUndefinedObject         = "42704"
	CodeDuplicateTable          = "42P07"
	CodeDuplicateColumn         = "42701"
	CodeDuplicateAlias          = "42712"
	CodeAmbiguousColumn         = "42702"
	CodeInvalidColumnReference  = "42P10"
	CodeWrongObjectType         = "42809"
	CodeInvalidTableDefinition  = "42P16"
	CodeProgramLimitExceeded    = "54000"
	CodeCantChangeRuntimeParam  = "55P02"
	CodeOutOfMemory             = "53200"
	CodeDiskFull                = "53100"
	CodeQueryCanceled           = "57014"
	CodeAdminShutdown           = "57P01"
	CodeIOError                 = "58030"
	CodeUndefinedFile           = "58P01"
	CodeProtocolViolation       = "08P01"
	CodeConnectionDoesNotExist  = "08003"
	CodeConnectionFailure       = "08006"
	CodeObjectNotInPrereqState  = "55000"
	CodeInternalError           = "XX000"
	CodeDataCorrupted           = "XX001" // data_corrupted: damaged pages in an input file
	// roles, authentication and resource limits
	CodeInvalidAuthorization = "28000" // invalid_authorization_specification
	CodeInvalidPassword      = "28P01"
	CodeDuplicateObject      = "42710"
	CodeReservedName         = "42939"
	CodeObjectInUse          = "55006"
	CodeTooManyConnections   = "53300"
	CodeIdleInTxTimeout      = "25P03"
	CodeIdleSessionTimeout   = "57P05"
	// time zones, time functions and math functions
	CodeInvalidTimeZoneDisplacement = "22009"
	CodeInvalidArgumentForLog       = "2201E"
	CodeInvalidArgumentForPower     = "2201F"
	CodeInvalidArgumentWidthBucket  = "2201G"
	CodeInvalidPrecedingFollowing   = "22013"
)

// Error is an error with a SQLSTATE. Every error that gpusql returns to a
// client is, or wraps, an *Error; anything else is reported as XX000.
type Error struct {
	Code     string // SQLSTATE
	Message  string
	Detail   string
	Hint     string
	Severity string // "" means ERROR
	Where    string // context, e.g. `COPY t, line 3, column a: "x"`
	Position int    // 1-based character position in the query, 0 if none
	Err      error  // wrapped cause, if any
}

func (e *Error) Error() string {
	if e.Detail != "" {
		return e.Message + " (" + e.Detail + ")"
	}
	return e.Message
}

func (e *Error) Unwrap() error { return e.Err }

// Errorf makes an *Error with code and a formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// WithDetail returns e with Detail set.
func (e *Error) WithDetail(format string, args ...any) *Error {
	e.Detail = fmt.Sprintf(format, args...)
	return e
}

// WithHint returns e with Hint set.
func (e *Error) WithHint(h string) *Error {
	e.Hint = h
	return e
}

// AsError returns err as an *Error, wrapping an unknown error as XX000.
func AsError(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return &Error{Code: CodeInternalError, Message: err.Error(), Err: err}
}

// Code returns err's SQLSTATE, or "" for nil.
func Code(err error) string {
	if err == nil {
		return ""
	}
	return AsError(err).Code
}

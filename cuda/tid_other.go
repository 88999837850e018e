//go:build !linux

package cuda

// gettid has no portable equivalent; -1 makes Device.onWorker always false,
// so Device methods must not be called from inside Do on such systems.
func gettid() int { return -1 }

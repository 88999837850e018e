//go:build !linux

package wire

import "net"

// peerClosed cannot poll for a closed peer on this platform; a vanished
// client is noticed when the session next reads or writes.
func peerClosed(net.Conn) (closed, ok bool) { return false, false }

//go:build linux

package wire

import (
	"net"
	"syscall"

	"golang.org/x/sys/unix"
)

// peerClosed reports whether the client has closed or reset its side of
// nc, without reading from it: poll with POLLRDHUP and no timeout, as
// PostgreSQL's client_connection_check_interval does. Data the client
// has sent but the session has not read yet does not hide a close. ok is
// false when nc gives no file descriptor to poll (a pipe in tests).
func peerClosed(nc net.Conn) (closed, ok bool) {
	if u, isTLS := nc.(interface{ NetConn() net.Conn }); isTLS {
		nc = u.NetConn()
	}
	sc, isSys := nc.(syscall.Conn)
	if !isSys {
		return false, false
	}
	raw, err := sc.SyscallConn()
	if err != nil {
		return false, false
	}
	err = raw.Control(func(fd uintptr) {
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLRDHUP}}
		n, perr := unix.Poll(fds, 0)
		switch {
		case perr != nil:
			ok = false
		case n > 0 && fds[0].Revents&(unix.POLLRDHUP|unix.POLLHUP|unix.POLLERR|unix.POLLNVAL) != 0:
			closed, ok = true, true
		default:
			ok = true
		}
	})
	if err != nil {
		// The descriptor is already closed: so is the connection.
		return true, true
	}
	return closed, ok
}

package httpserver_test

import "syscall"

// smallReceiveBuffer is a net.Dialer Control that gives the connection a
// 2 KiB receive buffer before it connects, so that a stream nobody reads
// soon fills the server's socket buffers.
func smallReceiveBuffer(_, _ string, rc syscall.RawConn) error {
	return rc.Control(func(fd uintptr) {
		syscall.SetsockoptInt(syscall.Handle(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 2048)
	})
}

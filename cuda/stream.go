package cuda

import (
	"errors"
	"time"
)

// Stream is a CUDA stream: work on one stream runs in order, work on
// different streams may overlap. Streams are created non-blocking, so they
// do not wait for the default stream.
type Stream struct {
	dev *Device
	h   uintptr
}

// NewStream creates a stream.
func (d *Device) NewStream() (*Stream, error) {
	s := &Stream{dev: d}
	err := d.do(func() error {
		return d.lib.check("cuStreamCreate", d.lib.cuStreamCreate(&s.h, streamNonBlocking))
	})
	if err != nil {
		return nil, err
	}
	return s, nil
}

// handle is the driver handle; nil is the default stream.
func (s *Stream) handle() uintptr {
	if s == nil {
		return 0
	}
	return s.h
}

// Sync waits for the stream's work to finish and reports its error.
func (s *Stream) Sync() error {
	return s.dev.do(func() error {
		return s.dev.lib.check("cuStreamSynchronize", s.dev.lib.cuStreamSynchronize(s.h))
	})
}

// Close destroys the stream (work already queued still completes).
func (s *Stream) Close() error {
	return s.dev.do(func() error {
		if s.h == 0 {
			return errors.New("cuda: stream closed twice")
		}
		err := s.dev.lib.check("cuStreamDestroy_v2", s.dev.lib.cuStreamDestroy_v2(s.h))
		s.h = 0
		return err
	})
}

// Event marks a point in a stream, for timing and waiting.
type Event struct {
	dev *Device
	h   uintptr
}

// NewEvent creates an event that records timing.
func (d *Device) NewEvent() (*Event, error) {
	e := &Event{dev: d}
	err := d.do(func() error {
		return d.lib.check("cuEventCreate", d.lib.cuEventCreate(&e.h, 0))
	})
	if err != nil {
		return nil, err
	}
	return e, nil
}

// Record marks the event at the current end of stream s (nil: default).
func (e *Event) Record(s *Stream) error {
	return e.dev.do(func() error {
		return e.dev.lib.check("cuEventRecord", e.dev.lib.cuEventRecord(e.h, s.handle()))
	})
}

// Sync waits until the work before the event's last Record has finished.
func (e *Event) Sync() error {
	return e.dev.do(func() error {
		return e.dev.lib.check("cuEventSynchronize", e.dev.lib.cuEventSynchronize(e.h))
	})
}

// Elapsed returns the device time between two recorded, completed events
// (resolution about half a microsecond).
func Elapsed(start, end *Event) (time.Duration, error) {
	if start.dev != end.dev {
		return 0, errors.New("cuda: Elapsed of events on different devices")
	}
	var ms float32
	err := start.dev.do(func() error {
		return start.dev.lib.check("cuEventElapsedTime", start.dev.lib.cuEventElapsedTime(&ms, start.h, end.h))
	})
	if err != nil {
		return 0, err
	}
	return time.Duration(float64(ms) * float64(time.Millisecond)), nil
}

// Close destroys the event.
func (e *Event) Close() error {
	return e.dev.do(func() error {
		if e.h == 0 {
			return errors.New("cuda: event closed twice")
		}
		err := e.dev.lib.check("cuEventDestroy_v2", e.dev.lib.cuEventDestroy_v2(e.h))
		e.h = 0
		return err
	})
}

//go:build race

package httpserver_test

// raceDetector tells whether the tests run under the race detector.
const raceDetector = true

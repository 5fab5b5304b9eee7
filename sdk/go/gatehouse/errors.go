package gatehouse

import (
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/status"
)

// ErrorDomain is the google.rpc.ErrorInfo domain of Gatehouse's errors (API.md, section 3).
const ErrorDomain = "gatehouse"

// ErrorInfo returns the google.rpc.ErrorInfo detail of an error from a Gatehouse call, or nil.
// Importing errdetails here also registers ErrorInfo and RetryInfo, so status.Details can
// decode them.
func ErrorInfo(err error) *errdetails.ErrorInfo {
	st, ok := status.FromError(err)
	if !ok {
		return nil
	}
	for _, detail := range st.Details() {
		if info, ok := detail.(*errdetails.ErrorInfo); ok && info.GetDomain() == ErrorDomain {
			return info
		}
	}
	return nil
}

// ReasonOf returns the stable reason of an error from a Gatehouse call (for example
// ReasonInvalidCredentials), or "" for an error that is not Gatehouse's (a network failure,
// a proxy's page).
func ReasonOf(err error) Reason {
	return Reason(ErrorInfo(err).GetReason())
}

// RetryAfter returns how long to wait before retrying a RATE_LIMITED or SERVICE_UNAVAILABLE
// answer, from its google.rpc.RetryInfo detail; false when the error says nothing.
func RetryAfter(err error) (time.Duration, bool) {
	st, ok := status.FromError(err)
	if !ok {
		return 0, false
	}
	for _, detail := range st.Details() {
		if info, ok := detail.(*errdetails.RetryInfo); ok && info.GetRetryDelay() != nil {
			delay := info.GetRetryDelay()
			return time.Duration(delay.GetSeconds())*time.Second + time.Duration(delay.GetNanos()), true
		}
	}
	return 0, false
}

package gatehouse

import (
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/status"
)

// ErrorDomain is the google.rpc.ErrorInfo domain of Gatehouse's errors (API.md, section 3).
const ErrorDomain = "gatehouse"

// ErrorInfo returns the google.rpc.ErrorInfo detail of an error from a Gatehouse call, or nil.
// Importing errdetails here also registers ErrorInfo, so status.Details can decode it.
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

// Reason returns the stable reason of an error from a Gatehouse call (for example
// "INVALID_CREDENTIALS"), the value to branch on rather than the message, or "" if none.
func Reason(err error) string {
	return ErrorInfo(err).GetReason()
}

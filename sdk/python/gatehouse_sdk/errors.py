"""The stable reason of a failed call (API.md, section 3), and how long to wait before retrying.

Gatehouse sends a google.rpc.Status in the `grpc-status-details-bin` trailer; its details hold
a google.rpc.ErrorInfo whose `reason` (INVALID_CREDENTIALS, RATE_LIMITED, …) is what a program
branches on, never the message text, and, on RATE_LIMITED and SERVICE_UNAVAILABLE, a
google.rpc.RetryInfo with the wait.
"""

from google.rpc import error_details_pb2, status_pb2

ERROR_DOMAIN = "gatehouse"
_STATUS_TRAILER = "grpc-status-details-bin"


def _details(error, message_type):
    """The details of `message_type` in the google.rpc.Status a grpc.RpcError carries."""
    trailers = error.trailing_metadata() if hasattr(error, "trailing_metadata") else None
    found = []
    for key, value in trailers or ():
        if key != _STATUS_TRAILER:
            continue
        status = status_pb2.Status.FromString(value)
        for detail in status.details:
            if detail.Is(message_type.DESCRIPTOR):
                message = message_type()
                detail.Unpack(message)
                found.append(message)
    return found


def error_info(error):
    """The google.rpc.ErrorInfo of a grpc.RpcError from Gatehouse, or None if it has none."""
    for info in _details(error, error_details_pb2.ErrorInfo):
        if info.domain == ERROR_DOMAIN:
            return info
    return None


def error_reason(error):
    """The ErrorInfo reason of a grpc.RpcError from Gatehouse (e.g. "INVALID_CREDENTIALS"), or None."""
    info = error_info(error)
    return info.reason if info is not None else None


def retry_after_seconds(error):
    """Seconds to wait before retrying a RATE_LIMITED or SERVICE_UNAVAILABLE answer, or None.

    Read from the google.rpc.RetryInfo detail (a float: its delay may have nanoseconds).
    """
    for retry in _details(error, error_details_pb2.RetryInfo):
        if retry.HasField("retry_delay"):
            return retry.retry_delay.seconds + retry.retry_delay.nanos / 1e9
    return None

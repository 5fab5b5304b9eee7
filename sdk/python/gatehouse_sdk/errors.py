"""The stable reason of a failed call (API.md, section 3).

Gatehouse sends a google.rpc.Status in the `grpc-status-details-bin` trailer; its details hold
a google.rpc.ErrorInfo whose `reason` (INVALID_CREDENTIALS, RATE_LIMITED, …) is what a program
branches on, never the message text.
"""

from google.rpc import error_details_pb2, status_pb2

ERROR_DOMAIN = "gatehouse"
_STATUS_TRAILER = "grpc-status-details-bin"


def error_info(error):
    """The google.rpc.ErrorInfo of a grpc.RpcError from Gatehouse, or None if it has none."""
    trailers = error.trailing_metadata() if hasattr(error, "trailing_metadata") else None
    for key, value in trailers or ():
        if key != _STATUS_TRAILER:
            continue
        status = status_pb2.Status.FromString(value)
        for detail in status.details:
            if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
                info = error_details_pb2.ErrorInfo()
                detail.Unpack(info)
                if info.domain == ERROR_DOMAIN:
                    return info
    return None


def error_reason(error):
    """The ErrorInfo reason of a grpc.RpcError from Gatehouse (e.g. "INVALID_CREDENTIALS"), or None."""
    info = error_info(error)
    return info.reason if info is not None else None

from buf.validate import validate_pb2 as _validate_pb2
from google.protobuf import descriptor as _descriptor
from typing import ClassVar as _ClassVar

DESCRIPTOR: _descriptor.FileDescriptor
NOT_BLANK_FIELD_NUMBER: _ClassVar[int]
not_blank: _descriptor.FieldDescriptor

"""The dispatcher's refusal: raised by its services, sent back as an ``error`` frame (``dispatch.wire``)."""

from __future__ import annotations


class DispatchError(Exception):
    """A request the dispatcher refuses; sent back as an error frame."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code, self.message = code, str(message)

    def __reduce__(self):  # raised in an offering worker process, re-raised in the serving one
        return type(self), (self.code, self.message)

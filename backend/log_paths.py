"""What a log line may say about a request: the path without its query string or secrets.

Daphne writes every request's full URI to its access log (``daphne.access.AccessLogGenerator``; the server of
``dispatch.transport.server`` passes it through :func:`redacted`) and Django logs the path of every 4xx/5xx ("Not Found:
/recibos/<token>.pdf"; :class:`RedactPaths` on the log handler). A query string can carry what a person typed (an
address searched, a phone) and a receipt's path is its signed link, which reads that receipt for
``receipt_link_days``: logs are kept and read by more people than the data. So a logged path keeps its route and
loses the query and the link's token (LGPD, art. 6, III: necessity).
"""

from __future__ import annotations

import logging
import re

REDACTED = "[...]"
# Routes whose next segment is a credential: the receipts' signed links (backend/receipts/urls.py).
_SECRET_SEGMENT = re.compile(r"^(/recibos/)[^/]+?(\.pdf|/|$)")


def loggable_path(path: str) -> str:
    """``path`` as the access log may write it: no query string, no fragment, no signed token."""
    bare = path.split("?", 1)[0].split("#", 1)[0]
    if bare != path:
        bare += "?" + REDACTED
    return _SECRET_SEGMENT.sub(lambda m: m.group(1) + REDACTED + m.group(2), bare, count=1)


def redacted(details: dict) -> dict:
    """Daphne's action details with the path made loggable."""
    if "path" not in details:
        return details
    return {**details, "path": loggable_path(str(details["path"]))}


class RedactPaths(logging.Filter):
    """A log handler's filter: every argument of a record that is a path (``/...``) is made loggable."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(loggable_path(a) if isinstance(a, str) and a.startswith("/") else a
                                for a in record.args)
        return True

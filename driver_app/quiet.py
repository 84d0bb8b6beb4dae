"""Keeps a line out of the driver app's terminal that would worry a newcomer and asks nothing of them.

On Linux, Kivy looks for ``xclip`` or ``xsel`` to support X11's middle-click selection (its "cut buffer") as soon
as a text field exists, and logs CRITICAL "Unable to find any valuable Cutbuffer provider" (with the two
FileNotFoundError lines) when neither is installed, as on a server under Xvfb. The app has no use for that
selection: a phone has none, and "Copiar Pix copia e cola" uses the SDL2 clipboard. Only that record is dropped;
every other Kivy message stays.
"""

from __future__ import annotations

import logging


class _NoCutbufferNotice(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        return "Cutbuffer provider" not in record.getMessage()


def quiet_kivy() -> None:
    """Install the filter on Kivy's logger (call before the first text field is built)."""
    from kivy.logger import Logger

    if not any(isinstance(f, _NoCutbufferNotice) for f in Logger.filters):
        Logger.addFilter(_NoCutbufferNotice())

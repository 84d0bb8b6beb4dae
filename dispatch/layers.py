"""The one-process channel layer, fit for thousands of connections.

Channels' ``InMemoryChannelLayer`` looks through every channel and every group
for expired messages on each send to a group and on each receive: O(connections)
per message, which at thousands of cabs took a tenth of the process's time in
the benchmark (docs/dispatch-benchmark.md). Messages expire after a minute and
memberships after a day, so looking every few seconds changes nothing else.
"""

import time

from channels.layers import InMemoryChannelLayer


class ThrottledInMemoryChannelLayer(InMemoryChannelLayer):
    CLEAN_EVERY_SECONDS = 5.0

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._cleaned_at = 0.0

    def _clean_expired(self):
        now = time.monotonic()
        if now - self._cleaned_at >= self.CLEAN_EVERY_SECONDS:
            self._cleaned_at = now
            super()._clean_expired()

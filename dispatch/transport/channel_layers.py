"""The channel layers: the one-process layer fit for thousands of connections, and Redis's with a pool that waits.

The one-process layer:

Channels' ``InMemoryChannelLayer`` looks through every channel and every group membership for what expired on each
send to a group and on each receive: O(connections) per message, a large share of the process's time at thousands of
cabs (docs/dispatch-benchmark.md, "Measurements by module"). Messages expire after a minute and memberships after a
day, so looking at each every few seconds changes nothing else. Even then one walk over every channel and membership
held the event loop long enough to be the tail of a ride request: so the walk is done in slices, a few hundred
entries each tenth of a second. """

import math
import time

from channels.layers import InMemoryChannelLayer
from channels_redis.core import RedisChannelLayer
from redis.asyncio import BlockingConnectionPool


class ThrottledInMemoryChannelLayer(InMemoryChannelLayer):
    CLEAN_EVERY_SECONDS = 5.0  # each channel and membership is looked at about this often
    SLICE_SECONDS = 0.1  # a slice of the walk at most this often
    ENTRIES_PER_CONNECTION = 3  # its channel, its cab's group and "cabs": sizes a slice

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._sliced_at = 0.0
        self._channels_todo: list = []
        self._groups_todo: list = []  # groups still to look at
        self._members_todo: tuple | None = None  # (group, names of its members still to look at): a large group in slices
        self._budget = 0

    def _clean_expired(self):
        now = time.monotonic()
        if now - self._sliced_at < min(self.SLICE_SECONDS, self.CLEAN_EVERY_SECONDS):
            return
        self._sliced_at = now
        if not self._channels_todo and not self._groups_todo and self._members_todo is None:  # a new walk: C-speed copies
            self._channels_todo, self._groups_todo = list(self.channels), list(self.groups)
            slices = max(1, math.floor(self.CLEAN_EVERY_SECONDS / self.SLICE_SECONDS))
            self._budget = 100 + math.ceil(self.ENTRIES_PER_CONNECTION * len(self._channels_todo) / slices)
        self._clean_slice(self._budget)

    def _clean_slice(self, budget: int) -> None:
        """Channels' own expiry rules (``InMemoryChannelLayer._clean_expired``) for the next ``budget`` entries."""
        wall = time.time()
        while budget > 0 and self._channels_todo:
            channel = self._channels_todo.pop()
            budget -= 1
            queue = self.channels.get(channel)
            while queue is not None and not queue.empty() and queue._queue[0][0] < wall:
                queue.get_nowait()
                self._remove_from_groups(channel)  # any expired message ends the channel's memberships
                if queue.empty():
                    self.channels.pop(channel, None)
        timeout = int(wall) - self.group_expiry
        while budget > 0 and (self._members_todo is not None or self._groups_todo):
            if self._members_todo is None:
                group = self._groups_todo.pop()
                self._members_todo = (group, list(self.groups.get(group, ())))
            group, names = self._members_todo
            take, rest = names[-budget:], names[:-budget]
            self._members_todo = (group, rest) if rest else None
            budget -= len(take)
            members = self.groups.get(group, {})  # a group gone meanwhile: nothing left to expire
            for name in take:
                joined = members.get(name)
                if joined and joined < timeout:
                    members.pop(name, None)


class WaitingPoolRedisChannelLayer(RedisChannelLayer):
    """channels_redis's layer whose connection pool (one per event loop) waits for a free connection.

    Its stock pool raises ``MaxConnectionsError`` the moment more commands are in flight on one event loop than
    ``max_connections``: in the 16-core benchmark thousands of sockets connecting at once (a ``group_add`` each)
    took every connection and announcements failed (docs/operations.md). This pool makes a command wait
    its turn, up to ``pool_timeout`` seconds; after that it fails (``redis.ConnectionError``) and the announcement
    outbox tries again (``dispatch.events.announcements``).
    """

    def __init__(self, *args, pool_timeout: float = 10.0, **kwargs):
        super().__init__(*args, **kwargs)
        self.pool_timeout = pool_timeout

    def create_pool(self, index):
        host = dict(self.hosts[index])
        if "address" not in host:  # sentinels, or a host given by parts: channels_redis's own pool
            return super().create_pool(index)
        return BlockingConnectionPool.from_url(host.pop("address"), timeout=self.pool_timeout, **host)

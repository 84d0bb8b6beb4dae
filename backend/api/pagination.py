"""Pages of at most ``MAX_LIMIT`` rows, from an offset the database can take: every list does bounded work."""

from rest_framework.pagination import LimitOffsetPagination

MAX_LIMIT = 500
MAX_OFFSET = 10**9  # beyond any table here; 10**20 would overflow the database's integer


class BoundedLimitOffsetPagination(LimitOffsetPagination):
    max_limit = MAX_LIMIT

    def get_offset(self, request):
        return min(super().get_offset(request), MAX_OFFSET)

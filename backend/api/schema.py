"""The OpenAPI schema's operations grouped by the app that serves them (registry, ranks, tariffs, ...)."""

from drf_spectacular.openapi import AutoSchema


class AppTaggedAutoSchema(AutoSchema):
    def get_tags(self):
        parts = self.view.__module__.split(".")
        return [parts[1] if parts[0] == "backend" else parts[0]]

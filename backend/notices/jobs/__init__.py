"""The law's deadlines acted on once and told (scheduler jobs, autodiscovered as ``backend.notices.jobs``).

Each module holds one app's deadline jobs; they live here, above the apps they act on, because each tells its
consequence with a :class:`~backend.notices.models.Notice`, and a notice names a permit or a person of the
registry: the registry, ranks, tariffs and enforcement apps import nothing of notices. The order below is the
order the apps had in INSTALLED_APPS, so that jobs due at one tick run in the order they always ran.
"""

from . import registry, ranks, tariffs, enforcement  # noqa: F401, I001 (registers the jobs; the order is the run order)

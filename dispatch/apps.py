from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class DispatchConfig(AppConfig):
    name = "dispatch"
    label = "dispatch"
    verbose_name = _("Rádio-táxi (Art. 66)")

    def ready(self):
        from backend.ranks.services import ranks
        from dispatch.rides.cabs import seen
        from dispatch.transport import credential_changes

        ranks.read_cabs_with(seen)  # a rank check-in by any door is judged where dispatch last saw the cab
        credential_changes.connect()  # a credential that ends closes the sockets opened with it

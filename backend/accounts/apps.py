from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "backend.accounts"
    verbose_name = "Contas e acesso"

    def ready(self):
        from . import signals  # noqa: F401  (tokens die with a password change)

from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "powts.accounts"
    label = "accounts"

from enum import StrEnum

class SessionModelVia(StrEnum):
    BASIC = "basic"
    OIDC = "oidc"
    SESSION = "session"
    TOKEN = "token"

    def __str__(self) -> str:
        return str(self.value)

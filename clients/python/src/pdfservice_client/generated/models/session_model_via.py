from enum import StrEnum

class SessionModelVia(StrEnum):
    BASIC = "basic"
    SESSION = "session"
    TOKEN = "token"

    def __str__(self) -> str:
        return str(self.value)

from enum import StrEnum

class UserModelRightsItem(StrEnum):
    ADMIN = "admin"
    DELETE = "DELETE"
    GET = "GET"
    POST = "POST"
    PUT = "PUT"

    def __str__(self) -> str:
        return str(self.value)

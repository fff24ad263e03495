from enum import StrEnum

class GetTokenResponse200RightsType0Item(StrEnum):
    ADMIN = "admin"
    DELETE = "DELETE"
    GET = "GET"
    POST = "POST"
    PUT = "PUT"

    def __str__(self) -> str:
        return str(self.value)

from enum import StrEnum

class CreateUserJsonBodyRightsItem(StrEnum):
    ADMIN = "admin"
    DELETE = "DELETE"
    GET = "GET"
    POST = "POST"
    PUT = "PUT"

    def __str__(self) -> str:
        return str(self.value)

from enum import StrEnum

class PutDocumentMedia(StrEnum):
    PRINT = "print"
    SCREEN = "screen"

    def __str__(self) -> str:
        return str(self.value)

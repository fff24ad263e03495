from enum import StrEnum

class UploadToFolderMedia(StrEnum):
    PRINT = "print"
    SCREEN = "screen"

    def __str__(self) -> str:
        return str(self.value)

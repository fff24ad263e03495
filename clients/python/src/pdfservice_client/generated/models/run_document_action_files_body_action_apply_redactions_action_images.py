from enum import StrEnum

class RunDocumentActionFilesBodyActionApplyRedactionsActionImages(StrEnum):
    NONE = "none"
    PIXELS = "pixels"
    REMOVE = "remove"

    def __str__(self) -> str:
        return str(self.value)

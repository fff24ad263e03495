from enum import StrEnum

class TrashEntryModelKind(StrEnum):
    DOCUMENT = "document"
    FOLDER = "folder"

    def __str__(self) -> str:
        return str(self.value)

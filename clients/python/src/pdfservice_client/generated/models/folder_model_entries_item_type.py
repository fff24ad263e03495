from enum import StrEnum

class FolderModelEntriesItemType(StrEnum):
    DOCUMENT = "document"
    FOLDER = "folder"

    def __str__(self) -> str:
        return str(self.value)

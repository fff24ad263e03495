from enum import StrEnum

class ComparePageStatus(StrEnum):
    CHANGED = "changed"
    DELETED = "deleted"
    INSERTED = "inserted"
    UNCHANGED = "unchanged"

    def __str__(self) -> str:
        return str(self.value)

from enum import StrEnum

class RunPageActionFilesBodyPageActionRemovePagesByTextActionMatch(StrEnum):
    CONTAINS = "contains"
    ONLY = "only"

    def __str__(self) -> str:
        return str(self.value)

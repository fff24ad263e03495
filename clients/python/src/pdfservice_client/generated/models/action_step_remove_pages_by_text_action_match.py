from enum import StrEnum

class ActionStepRemovePagesByTextActionMatch(StrEnum):
    CONTAINS = "contains"
    ONLY = "only"

    def __str__(self) -> str:
        return str(self.value)

from enum import StrEnum

class ActionStepApplyRedactionsActionImages(StrEnum):
    NONE = "none"
    PIXELS = "pixels"
    REMOVE = "remove"

    def __str__(self) -> str:
        return str(self.value)

from enum import StrEnum

class ActionStepApplyRedactionsActionLineArt(StrEnum):
    COVERED = "covered"
    NONE = "none"
    TOUCHED = "touched"

    def __str__(self) -> str:
        return str(self.value)

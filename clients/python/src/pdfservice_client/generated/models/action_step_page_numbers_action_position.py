from enum import StrEnum

class ActionStepPageNumbersActionPosition(StrEnum):
    BOTTOM_CENTER = "bottom-center"
    BOTTOM_LEFT = "bottom-left"
    BOTTOM_RIGHT = "bottom-right"
    TOP_CENTER = "top-center"
    TOP_LEFT = "top-left"
    TOP_RIGHT = "top-right"

    def __str__(self) -> str:
        return str(self.value)

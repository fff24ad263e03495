from enum import StrEnum

class ActionStepBookletActionBinding(StrEnum):
    LEFT = "left"
    RIGHT = "right"

    def __str__(self) -> str:
        return str(self.value)

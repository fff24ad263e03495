from enum import StrEnum

class ActionStepNUpActionOrder(StrEnum):
    DOWNLEFT = "downLeft"
    DOWNRIGHT = "downRight"
    LEFTDOWN = "leftDown"
    RIGHTDOWN = "rightDown"

    def __str__(self) -> str:
        return str(self.value)

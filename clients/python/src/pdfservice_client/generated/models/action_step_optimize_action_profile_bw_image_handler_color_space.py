from enum import IntEnum

class ActionStepOptimizeActionProfileBwImageHandlerColorSpace(IntEnum):
    VALUE_0 = 0
    VALUE_4 = 4

    def __str__(self) -> str:
        return str(self.value)

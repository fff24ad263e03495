from enum import IntEnum

class ActionStepNUpActionPerSheet(IntEnum):
    VALUE_2 = 2
    VALUE_4 = 4
    VALUE_6 = 6
    VALUE_9 = 9
    VALUE_16 = 16

    def __str__(self) -> str:
        return str(self.value)

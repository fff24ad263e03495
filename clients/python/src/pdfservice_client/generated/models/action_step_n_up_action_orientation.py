from enum import StrEnum

class ActionStepNUpActionOrientation(StrEnum):
    AUTO = "auto"
    LANDSCAPE = "landscape"
    PORTRAIT = "portrait"

    def __str__(self) -> str:
        return str(self.value)

from enum import StrEnum

class ActionStepScalePagesActionOrientation(StrEnum):
    AUTO = "auto"
    LANDSCAPE = "landscape"
    PORTRAIT = "portrait"

    def __str__(self) -> str:
        return str(self.value)

from enum import StrEnum

class ConvertOneShotBodyStepsItemNUpActionOrientation(StrEnum):
    AUTO = "auto"
    LANDSCAPE = "landscape"
    PORTRAIT = "portrait"

    def __str__(self) -> str:
        return str(self.value)

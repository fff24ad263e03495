from enum import StrEnum

class RunPageActionFilesBodyPageActionScalePagesActionOrientation(StrEnum):
    AUTO = "auto"
    LANDSCAPE = "landscape"
    PORTRAIT = "portrait"

    def __str__(self) -> str:
        return str(self.value)

from enum import StrEnum

class AnnotationModelBorderStyle(StrEnum):
    BEVELED = "beveled"
    DASHED = "dashed"
    INSET = "inset"
    SOLID = "solid"
    UNDERLINE = "underline"

    def __str__(self) -> str:
        return str(self.value)

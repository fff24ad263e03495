from enum import StrEnum

class AnnotationModelBorderEffect(StrEnum):
    CLOUDY = "cloudy"

    def __str__(self) -> str:
        return str(self.value)

from enum import StrEnum

class PipelineRequestStepsItemBookletActionBinding(StrEnum):
    LEFT = "left"
    RIGHT = "right"

    def __str__(self) -> str:
        return str(self.value)

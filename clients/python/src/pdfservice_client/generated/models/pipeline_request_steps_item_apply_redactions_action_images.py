from enum import StrEnum

class PipelineRequestStepsItemApplyRedactionsActionImages(StrEnum):
    NONE = "none"
    PIXELS = "pixels"
    REMOVE = "remove"

    def __str__(self) -> str:
        return str(self.value)

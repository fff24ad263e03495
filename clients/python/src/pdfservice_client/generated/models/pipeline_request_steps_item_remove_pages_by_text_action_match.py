from enum import StrEnum

class PipelineRequestStepsItemRemovePagesByTextActionMatch(StrEnum):
    CONTAINS = "contains"
    ONLY = "only"

    def __str__(self) -> str:
        return str(self.value)

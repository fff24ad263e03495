from enum import StrEnum

class ActionStepFacturXActionRelationship(StrEnum):
    ALTERNATIVE = "Alternative"
    DATA = "Data"
    SOURCE = "Source"

    def __str__(self) -> str:
        return str(self.value)

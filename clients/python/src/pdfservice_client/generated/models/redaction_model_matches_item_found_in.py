from enum import StrEnum

class RedactionModelMatchesItemFoundIn(StrEnum):
    ANNOTATION = "annotation"
    CONTENT = "content"

    def __str__(self) -> str:
        return str(self.value)

from enum import StrEnum

class ActionStepPageNumbersActionFontStyle(StrEnum):
    BOLD = "bold"
    BOLDITALIC = "bolditalic"
    ITALIC = "italic"
    PLAIN = "plain"

    def __str__(self) -> str:
        return str(self.value)

from enum import StrEnum

class ActionStepScalePagesActionPaperSize(StrEnum):
    A3 = "A3"
    A4 = "A4"
    A5 = "A5"
    B4 = "B4"
    B5 = "B5"
    LEGAL = "Legal"
    LETTER = "Letter"
    TABLOID = "Tabloid"

    def __str__(self) -> str:
        return str(self.value)

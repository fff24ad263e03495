from enum import StrEnum

class FieldModelType(StrEnum):
    CHECKBOX = "checkbox"
    COMBO = "combo"
    LIST = "list"
    PUSHBUTTON = "pushbutton"
    RADIO = "radio"
    SIGNATURE = "signature"
    TEXT = "text"

    def __str__(self) -> str:
        return str(self.value)
